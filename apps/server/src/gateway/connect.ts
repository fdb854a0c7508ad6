import type { Socket } from 'node:net';
import { connectionOf } from './connections.ts';
import type { GatewayContext } from './context.ts';
import { authenticate, bind } from './credentials.ts';
import { openTunnel } from './outbound.ts';
import { httpRefusal, notAProxyRequest, outboundRefusal, refuseConnect } from './refusals.ts';
import { relay } from './tunnel.ts';
import { type Onward, outboundError } from './upstream.ts';

/** `host:port` of a CONNECT (an IPv6 address in brackets), or undefined. */
export function authorityOf(target: string | undefined): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]/]+)):(\d{1,5})$/.exec(target ?? '');
  const port = Number(match?.[3]);
  const host = match?.[1] ?? match?.[2];
  if (!host || !(port > 0 && port <= 65_535)) return undefined;
  return { host, port };
}

/** An HTTP CONNECT: authenticated, the tunnel opened onwards, answered 200 and relayed; or refused in words. */
export async function serveConnect(
  context: GatewayContext,
  request: { url?: string | undefined; headers: { 'proxy-authorization'?: string | undefined } },
  socket: Socket,
  head: Buffer,
): Promise<void> {
  const connection = connectionOf(socket);
  const target = authorityOf(request.url);
  if (!connection || !target) {
    refuseConnect(socket, notAProxyRequest);
    return;
  }
  const authorization = request.headers['proxy-authorization'];
  const outcome = await authenticate(context, connection, { authorization });
  if ('refused' in outcome) {
    refuseConnect(socket, httpRefusal(connection, outcome, context.config.purchaseUrl));
    return;
  }
  bind(context, connection, outcome, target.host, authorization);
  let onward: Onward;
  try {
    onward = await openTunnel(context, socket, { ...target, targeting: connection.targeting });
  } catch (error) {
    if (socket.destroyed) return;
    refuseConnect(socket, outboundRefusal(outboundError(error, target.host, target.port)));
    return;
  }
  if (socket.destroyed) {
    onward.socket.destroy();
    return;
  }
  socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  if (head.length > 0) onward.socket.write(head);
  relay(context.open, connection, onward);
}

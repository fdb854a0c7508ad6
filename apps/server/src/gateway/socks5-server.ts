import type { Connection } from './connections.ts';
import type { GatewayContext } from './context.ts';
import { authenticate, bind, type Outcome } from './credentials.ts';
import { openTunnel } from './outbound.ts';
import { refuse } from './refusals.ts';
import {
  credentialsStatus,
  HandshakeReader,
  methodChoice,
  readCredentials,
  readGreeting,
  readRequest,
  replyForError,
  SocksMethod,
  SocksReply,
  reply as socksReply,
} from './socks5.ts';
import { relay } from './tunnel.ts';
import { type Onward, outboundError } from './upstream.ts';

/** The greeting and the authentication: who the customer is, or undefined once refused (answered, closing). */
async function socksAuthenticate(
  context: GatewayContext,
  connection: Connection,
  reader: HandshakeReader,
): Promise<Outcome | undefined> {
  const { socket } = connection;
  const methods = await readGreeting(reader);
  if (methods.includes(SocksMethod.password)) {
    socket.write(methodChoice(SocksMethod.password));
    const outcome = await authenticate(context, connection, await readCredentials(reader));
    // Only a wrong password fails the RFC 1929 exchange; every other refusal answers the request (below) with
    // "connection not allowed", which clients report as such.
    if ('refused' in outcome && outcome.refused === 'wrongCredentials') {
      refuse(socket, credentialsStatus(false));
      return undefined;
    }
    socket.write(credentialsStatus(true));
    return outcome;
  }
  if (methods.includes(SocksMethod.none)) {
    const outcome = await authenticate(context, connection, undefined);
    if (!('refused' in outcome) || outcome.refused !== 'credentialsRequired') {
      socket.write(methodChoice(SocksMethod.none));
      return outcome;
    }
  }
  refuse(socket, methodChoice(SocksMethod.noneAcceptable));
  return undefined;
}

/** The connection onwards for a granted request, relayed to the client's; or the failure answered. */
async function socksOnward(
  context: GatewayContext,
  connection: Connection,
  target: { host: string; port: number },
  rest: Buffer,
): Promise<void> {
  const { socket } = connection;
  let onward: Onward;
  try {
    onward = await openTunnel(context, socket, { ...target, targeting: connection.targeting });
  } catch (error) {
    const failed = outboundError(error, target.host, target.port);
    refuse(socket, socksReply(failed.status === 403 ? SocksReply.notAllowed : replyForError(failed.code)));
    return;
  }
  if (socket.destroyed) {
    onward.socket.destroy();
    return;
  }
  socket.write(
    socksReply(SocksReply.succeeded, { address: onward.socket.localAddress, port: onward.socket.localPort }),
  );
  if (rest.length > 0) onward.socket.write(rest);
  relay(context.open, connection, onward);
}

/**
 * A SOCKS 5 connection (its first chunk already read): greeting, authentication and request, then the tunnel. The
 * handshake has `handshakeMs`, until granted: a refused client that keeps its side is still cut.
 */
export async function serveSocks(
  context: GatewayContext,
  connection: Connection,
  first: Buffer,
  handshakeMs: number,
): Promise<void> {
  const { socket } = connection;
  const reader = new HandshakeReader(socket, first);
  const timer = setTimeout(() => socket.destroy(), handshakeMs);
  socket.once('close', () => clearTimeout(timer));
  try {
    const outcome = await socksAuthenticate(context, connection, reader);
    if (!outcome) return;
    const request = await readRequest(reader);
    const rest = reader.rest();
    if (request.command !== 0x01) {
      refuse(socket, socksReply(SocksReply.commandNotSupported));
      return;
    }
    if (!('host' in request)) {
      refuse(socket, socksReply(SocksReply.addressTypeNotSupported));
      return;
    }
    // Port 0 is no destination: refused as HTTP's CONNECT refuses it (authorityOf).
    if ('refused' in outcome || request.port === 0) {
      refuse(socket, socksReply(SocksReply.notAllowed));
      return;
    }
    // The customer's handshake is done: the connection onwards has its own limits, and a customer waiting for it
    // is answered when they end.
    clearTimeout(timer);
    bind(context, connection, outcome, request.host);
    await socksOnward(context, connection, { host: request.host, port: request.port }, rest);
  } catch {
    socket.destroy();
  } finally {
    reader.stop();
  }
}

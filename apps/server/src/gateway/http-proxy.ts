import type http from 'node:http';
import { connectionOf } from './connections.ts';
import type { GatewayContext } from './context.ts';
import { authenticate, bind } from './credentials.ts';
import type { PinnedLookup } from './egress.ts';
import { checkTarget } from './outbound.ts';
import { httpRefusal, notAProxyRequest, outboundRefusal, refuseRequest } from './refusals.ts';
import { forwardRequest, outboundError } from './upstream.ts';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Headers to pass on (a flat name, value list, as received): without the hop-by-hop ones and those Connection names. */
export function endToEnd(raw: string[], keepChunked: boolean): string[] {
  const named = new Set<string>();
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]?.toLowerCase() === 'connection') {
      for (const token of (raw[index + 1] ?? '').split(',')) named.add(token.trim().toLowerCase());
    }
  }
  const kept: string[] = [];
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] ?? '';
    const lower = name.toLowerCase();
    const value = raw[index + 1] ?? '';
    // A chunked request body stays chunked: Node's client frames it again when the header is set.
    if (keepChunked && lower === 'transfer-encoding' && value.trim().toLowerCase() === 'chunked') {
      kept.push(name, value);
      continue;
    }
    if (HOP_BY_HOP.has(lower) || named.has(lower)) continue;
    kept.push(name, value);
  }
  return kept;
}

/** The absolute-form http:// URL a proxy request names, or undefined. */
export function absoluteUrl(target: string | undefined): URL | undefined {
  if (!/^http:\/\//i.test(target ?? '')) return undefined;
  try {
    return new URL(target ?? '');
  } catch {
    return undefined;
  }
}

/** Carries one plain-HTTP request (absolute form) onwards and its answer back, metering as the answer is written. */
export async function serveRequest(
  context: GatewayContext,
  request: http.IncomingMessage,
  response: http.ServerResponse,
): Promise<void> {
  const connection = connectionOf(request.socket);
  const url = absoluteUrl(request.url);
  if (!connection || !url) {
    refuseRequest(request, response, notAProxyRequest);
    return;
  }
  const authorization = request.headers['proxy-authorization'];
  const outcome = await authenticate(context, connection, { authorization });
  if ('refused' in outcome) {
    refuseRequest(request, response, httpRefusal(connection, outcome, context.config.purchaseUrl));
    return;
  }
  bind(context, connection, outcome, url.hostname, authorization);
  const port = Number(url.port || 80);
  let lookup: PinnedLookup | undefined;
  try {
    lookup = await checkTarget(context, url.hostname);
  } catch (error) {
    refuseRequest(request, response, outboundRefusal(outboundError(error, url.hostname, port)));
    return;
  }
  const headers = endToEnd(request.rawHeaders, true);
  if (request.headers.host === undefined) headers.unshift('Host', url.host);
  const left = new AbortController();
  const onward = forwardRequest({
    url,
    method: request.method ?? 'GET',
    headers,
    lookup,
    upstream: context.config.upstream,
    targeting: connection.targeting,
    agents: context.agents,
    signal: left.signal,
  });
  onward.on('response', (incoming) => {
    response.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, endToEnd(incoming.rawHeaders, false));
    // Also held while the account's next slice is asked for (OpenConnections.meter).
    const resume = () => {
      const held = context.open.heldBy(connection);
      if (held) void held.then(resume);
      else if (!response.writableNeedDrain) incoming.resume();
    };
    incoming.on('data', (chunk: Buffer) => {
      if (!response.write(chunk)) incoming.pause();
      const slice = context.open.meter(connection);
      if (slice) {
        incoming.pause();
        void slice.then(resume);
      }
    });
    response.on('drain', resume);
    incoming.on('end', () => response.end());
    incoming.on('error', () => response.destroy());
  });
  onward.on('error', (error) => {
    refuseRequest(request, response, outboundRefusal(outboundError(error, url.hostname, port)));
  });
  // The client went away (or was cut) before the answer was whole: the onward request is dropped too.
  response.on('close', () => {
    if (response.writableFinished) return;
    onward.destroy();
    left.abort();
  });
  request.pipe(onward);
}

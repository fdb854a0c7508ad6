import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { ResidentialTargeting } from '@storefront/contract';
import type { PinnedLookup } from './egress.ts';

/**
 * The upstream provider's username for one request, from RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE. Placeholders:
 * {username} (the upstream URL's own username), {country} (lower case), {COUNTRY}, {session}, {duration} (minutes),
 * {hard} ('hard' for a static line, else empty) and {type} ('static' or 'dynamic'). A part in square brackets is left out
 * when a placeholder in it is empty, so `[-{hard}]` disappears for dynamic lines. A plain username (no targeting) uses
 * the upstream username unchanged: the provider's own default.
 */
export function upstreamUsername(template: string, base: string, targeting: ResidentialTargeting | undefined): string {
  if (!targeting) return base;
  const values: Record<string, string> = {
    username: base,
    country: targeting.country.toLowerCase(),
    COUNTRY: targeting.country.toUpperCase(),
    session: targeting.sessionId,
    duration: String(targeting.durationMinutes),
    hard: targeting.type === 'static' ? 'hard' : '',
    type: targeting.type,
  };
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
  const withOptionalParts = template.replace(/\[([^\]]*)\]/g, (_, part: string) => {
    const names = [...part.matchAll(/\{(\w+)\}/g)].map(([, name]) => name ?? '');
    return names.every((name) => (values[name] ?? '') !== '') ? part : '';
  });
  return fill(withOptionalParts);
}

/** The upstream URL for one request: the configured URL with the username for this request's targeting. */
export function upstreamUrlFor(
  upstream: { url: string; usernameTemplate: string },
  targeting: ResidentialTargeting | undefined,
): string {
  const url = new URL(upstream.url);
  const base = decodeURIComponent(url.username);
  url.username = encodeURIComponent(upstreamUsername(upstream.usernameTemplate, base, targeting));
  return url.href;
}

/** The configured upstream provider (RESIDENTIAL_UPSTREAM_URL and its username template). */
export interface Upstream {
  url: string;
  usernameTemplate: string;
}

/** A connection towards a target could not be made: what the customer is told, and how (HTTP status, SOCKS reply). */
export class OutboundError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(message: string, status: number, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** How long making a connection may take (to the target, or to the upstream and through it). */
const CONNECT_TIMEOUT_MS = 30_000;

/** An error of the system while connecting, in the customer's words. */
export function outboundError(error: unknown, host: string, port: number): OutboundError {
  if (error instanceof OutboundError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host}:${port}`;
  switch (code) {
    case 'ECONNREFUSED':
      return new OutboundError(`${where} refused the connection.`, 502, code);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new OutboundError(`The name ${host} could not be resolved.`, 502, code);
    case 'ETIMEDOUT':
      return new OutboundError(`${where} did not answer in time.`, 504, code);
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return new OutboundError(`${where} cannot be reached.`, 502, code);
    default:
      return new OutboundError(`The connection to ${where} failed.`, 502, code);
  }
}

function basicAuthorization(url: URL, targeting: ResidentialTargeting | undefined, template: string): string {
  const username = upstreamUsername(template, decodeURIComponent(url.username), targeting);
  return `Basic ${Buffer.from(`${username}:${decodeURIComponent(url.password)}`).toString('base64')}`;
}

const defaultPort = (url: URL) =>
  Number(url.port || (url.protocol === 'https:' ? 443 : url.protocol.startsWith('socks') ? 1080 : 80));

/** What a connection being made is destroyed with when the customer leaves before it is made. */
class CustomerLeft extends Error {
  constructor() {
    super('The customer left before the connection was made.');
  }
}

/**
 * Waits for `making`, destroying `socket` (and so failing `making`) if `signal` aborts first: a customer who leaves
 * while a target or provider is slow to answer does not keep a connection open on the gateway for them.
 */
async function unlessLeft<T>(socket: net.Socket, signal: AbortSignal | undefined, making: Promise<T>): Promise<T> {
  if (!signal) return making;
  const drop = () => socket.destroy(new CustomerLeft());
  if (signal.aborted) drop();
  else signal.addEventListener('abort', drop, { once: true });
  try {
    return await making;
  } finally {
    signal.removeEventListener('abort', drop);
  }
}

/** Resolves once `socket` is connected (or, for TLS, through its handshake); rejects on an error or after the timeout. */
function connected(socket: net.Socket, event: 'connect' | 'secureConnect'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const error: NodeJS.ErrnoException = new Error('connect timed out');
      error.code = 'ETIMEDOUT';
      socket.destroy();
      reject(error);
    }, CONNECT_TIMEOUT_MS);
    socket.once(event, () => {
      clearTimeout(timer);
      socket.off('error', fail);
      resolve(socket);
    });
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
  });
}

/**
 * Resolves once connected to the upstream provider. A failure is the provider's, and is said so (not "the target
 * refused"); no system code is passed on, so a SOCKS customer is answered "general failure" as for the provider's other
 * failures.
 */
async function providerConnected(socket: net.Socket, event: 'connect' | 'secureConnect'): Promise<void> {
  try {
    await connected(socket, event);
  } catch (error) {
    if (error instanceof CustomerLeft) throw error;
    throw (error as NodeJS.ErrnoException).code === 'ETIMEDOUT'
      ? new OutboundError('The upstream provider did not answer in time.', 504)
      : new OutboundError('The upstream provider could not be reached.', 502);
  }
}

/** The milliseconds left until `deadline` (at least 1): connecting and the provider's answer share one limit. */
const left = (deadline: number) => Math.max(1, deadline - Date.now());

/**
 * A connection towards a target for a tunnel, its bytes taken by one taker at a time. A TCP connection of the gateway's
 * own reads into reused buffers (docs/decisions/2026-11-27-tunnel-reads-own-buffers.md), so a chunk is valid only until
 * the next read: a taker that keeps one pauses the connection; TLS and `socks` connections read through Node's streams.
 */
export interface Onward {
  socket: net.Socket;
  take(taker: (chunk: Buffer) => void): void;
}

/** An Onward whose chunks can be taken back (the provider's answer to CONNECT is read before the tunnel's taker). */
interface Reads extends Onward {
  /** Takes the chunks back from the current taker: `rest` and what comes next are kept for the next one. */
  untake(rest: Buffer): void;
}

/** A read that fills its buffer finds more waiting (a download): the next read gets a large buffer, reused. */
const LARGE_READ_BYTES = 64 * 1024;
/**
 * Otherwise the next read gets the connection's small buffer (a 10 KB answer in one read). An idle tunnel holds it, and
 * the large one too when its last read filled the large one exactly (only a read that does not fill it drops it).
 */
const SMALL_READ_BYTES = 16 * 1024;

/**
 * A connection's chunks, to one taker at a time; what comes while nobody takes them (between a provider's answer and the
 * tunnel's start) is kept for the next taker, copied when `copy` (a buffer the connection reads into again).
 */
function handedOut(socket: net.Socket, copy: boolean): Reads & { hand(chunk: Buffer): void } {
  let taker: ((chunk: Buffer) => void) | undefined;
  const kept: Buffer[] = [];
  const keep = (chunk: Buffer) => {
    if (chunk.length > 0) kept.push(copy ? Buffer.from(chunk) : chunk);
  };
  return {
    socket,
    hand(chunk) {
      if (taker) taker(chunk);
      else keep(chunk);
    },
    take(next) {
      taker = next;
      for (const chunk of kept.splice(0)) next(chunk);
    },
    untake(rest) {
      taker = undefined;
      keep(rest);
    },
  };
}

/** A TCP connection reading into its own buffers (see Onward), opened with `connect(onread)`. */
function openReadingIntoOwnBuffers(connect: (onread: net.OnReadOpts) => net.Socket): Reads {
  const small: Buffer = Buffer.allocUnsafe(SMALL_READ_BYTES);
  let large: Buffer | undefined;
  let lent: Buffer = small;
  // Set as soon as `connect` returns: no read comes before.
  let chunks: ReturnType<typeof handedOut> | undefined;
  const socket = connect({
    // Node asks for the next read's buffer after each read's callback. A chunk still held then is safe in the buffer
    // given: its taker has paused the connection. A large buffer left for a small one goes once its writes are done.
    buffer: () => lent,
    callback: (read) => {
      const chunk = lent.subarray(0, read);
      const filled = read === lent.length;
      if (filled) large ??= Buffer.allocUnsafe(LARGE_READ_BYTES);
      else large = undefined;
      lent = large ?? small;
      chunks?.hand(chunk);
      return true;
    },
  });
  chunks = handedOut(socket, true);
  return chunks;
}

/** A connection read through Node's streams: each chunk a buffer of its own. */
function readThroughStreams(socket: net.Socket): Reads {
  const chunks = handedOut(socket, false);
  socket.on('data', (chunk: Buffer) => chunks.hand(chunk));
  return chunks;
}

/**
 * The `socks` library's failures, told as the provider's own where they are (its errors carry no code; these are the
 * texts of its `ERRORS`, or a socket error's). Only the provider's refusal of the request ("rejected connection", with
 * the reason it gave) is the target's failure: the customer is told the connection to the target failed.
 */
function socksFailure(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof OutboundError || error instanceof CustomerLeft) return error;
  const { message } = error;
  if (/^Socks[45] proxy rejected connection/i.test(message)) return error;
  if (message === 'Proxy connection timed out')
    return new OutboundError('The upstream provider did not answer in time.', 504);
  if (message === 'Socks5 Authentication failed' || message.includes('no accepted authentication type'))
    return new OutboundError("The upstream provider refused the gateway's credentials.", 502);
  if (message.startsWith('Received invalid') || message === 'Negotiation error')
    return new OutboundError('The upstream provider does not answer as a SOCKS proxy.', 502);
  // 'Socket closed', or the socket's own error (a reset).
  return new OutboundError('The upstream provider closed the connection.', 502);
}

/**
 * A connection through a SOCKS provider, read through Node's streams: the TCP connection is the gateway's (so it can be
 * dropped when the customer leaves), its handshake is made by the `socks` library.
 */
async function socksConnection(
  url: URL,
  upstream: Upstream,
  targeting: ResidentialTargeting | undefined,
  destination: { host: string; port: number },
  signal?: AbortSignal,
): Promise<net.Socket> {
  const { SocksClient } = await import('socks');
  const deadline = Date.now() + CONNECT_TIMEOUT_MS;
  const proxy = { host: url.hostname.replace(/^\[|\]$/g, ''), port: defaultPort(url) };
  const socket = net.connect({ ...proxy, noDelay: true });
  const made = unlessLeft(
    socket,
    signal,
    providerConnected(socket, 'connect').then(() =>
      SocksClient.createConnection({
        proxy: {
          ...proxy,
          type: url.protocol.startsWith('socks4') ? 4 : 5,
          userId: upstreamUsername(upstream.usernameTemplate, decodeURIComponent(url.username), targeting),
          password: decodeURIComponent(url.password),
        },
        command: 'connect',
        destination,
        timeout: left(deadline),
        existing_socket: socket,
      }),
    ),
  );
  try {
    await made;
  } catch (error) {
    socket.destroy();
    throw socksFailure(error);
  }
  // Only now: the library notices a provider that goes away during the handshake by its 'close', which a half-open
  // socket would not emit on the provider's end.
  socket.allowHalfOpen = true;
  return socket;
}

/**
 * A raw connection to `host:port`, for a CONNECT tunnel or a SOCKS CONNECT: directly (through the lookup pinned to the
 * addresses the egress check allowed), or through the upstream provider: an HTTP CONNECT to an http(s) provider, a
 * SOCKS CONNECT to a socks one. Both ends may half-close (a client that sends its request and shuts its side still gets
 * the answer).
 */
export async function openConnection(options: {
  host: string;
  port: number;
  lookup: PinnedLookup | undefined;
  upstream: Upstream | undefined;
  targeting: ResidentialTargeting | undefined;
  /** Aborts when the customer leaves: a connection not yet made is dropped (and this rejects). */
  signal?: AbortSignal;
}): Promise<Onward> {
  const { host, port, upstream, targeting, signal } = options;
  try {
    if (!upstream) {
      const onward = openReadingIntoOwnBuffers((onread) =>
        net.connect({
          host,
          port,
          allowHalfOpen: true,
          noDelay: true,
          onread,
          ...(options.lookup ? { lookup: options.lookup } : {}),
        }),
      );
      await unlessLeft(onward.socket, signal, connected(onward.socket, 'connect'));
      return onward;
    }
    const url = new URL(upstream.url);
    // Not resumed here: the `socks` library hands on what came with its handshake's last answer (the target's first
    // bytes, for a server that speaks first) as a 'data' event in a later turn, then resumes the socket itself.
    if (url.protocol.startsWith('socks'))
      return readThroughStreams(await socksConnection(url, upstream, targeting, { host, port }, signal));
    const proxyHost = url.hostname.replace(/^\[|\]$/g, '');
    const onward =
      url.protocol === 'https:'
        ? readThroughStreams(
            tls.connect({
              host: proxyHost,
              port: defaultPort(url),
              servername: net.isIP(proxyHost) ? undefined : proxyHost,
            }),
          )
        : openReadingIntoOwnBuffers((onread) =>
            net.connect({ host: proxyHost, port: defaultPort(url), noDelay: true, onread }),
          );
    const authority = net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
    const deadline = Date.now() + CONNECT_TIMEOUT_MS;
    await unlessLeft(
      onward.socket,
      signal,
      providerConnected(onward.socket, url.protocol === 'https:' ? 'secureConnect' : 'connect').then(() => {
        onward.socket.allowHalfOpen = true;
        onward.socket.write(
          `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n` +
            `Proxy-Authorization: ${basicAuthorization(url, targeting, upstream.usernameTemplate)}\r\n\r\n`,
        );
        return upstreamTunnelAnswer(onward, authority, left(deadline));
      }),
    );
    return onward;
  } catch (error) {
    throw outboundError(error, host, port);
  }
}

/**
 * Reads the provider's answer to CONNECT; anything but 2xx is refused (the provider's status is not passed on), and so
 * is a provider that ends or closes before answering or does not answer in time. What follows the answer's head is
 * kept for the tunnel's taker.
 */
function upstreamTunnelAnswer(onward: Reads, authority: string, timeoutMs: number): Promise<void> {
  const { socket } = onward;
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onChunk = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > 16_384)
          done(new OutboundError('The upstream provider answered CONNECT with too long a head.', 502));
        return;
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString('latin1'))?.[1] ?? 0);
      if (status >= 200 && status < 300) done(undefined, head.subarray(end + 4));
      else done(new OutboundError(`The upstream provider refused ${authority} (HTTP ${status}).`, 502));
    };
    const onClose = () => done(new OutboundError('The upstream provider closed the connection.', 502));
    const timer = setTimeout(
      () => done(new OutboundError('The upstream provider did not answer CONNECT in time.', 504, 'ETIMEDOUT')),
      timeoutMs,
    );
    const done = (error?: Error, rest = Buffer.alloc(0)) => {
      clearTimeout(timer);
      // What follows the head (the target's first bytes) waits for the tunnel's taker.
      onward.untake(rest);
      socket.off('end', onClose);
      socket.off('close', onClose);
      socket.off('error', onClose);
      if (error) {
        socket.destroy();
        reject(error);
      } else resolve();
    };
    onward.take(onChunk);
    socket.on('end', onClose);
    socket.on('close', onClose);
    socket.on('error', onClose);
  });
}

/**
 * Kept-alive connections for plain HTTP: one pool for direct egress or for the http(s) upstream. Idle connections are
 * bounded per target and closed after a minute idle, so the pool never grows without bound.
 */
export interface Agents {
  agent: http.Agent | undefined;
  destroy(): void;
}

export function createAgents(upstream: Upstream | undefined): Agents {
  const options = { keepAlive: true, maxFreeSockets: 256, timeout: 60_000, scheduling: 'lifo' as const };
  const protocol = upstream ? new URL(upstream.url).protocol : 'http:';
  const agent = protocol.startsWith('socks')
    ? undefined
    : protocol === 'https:'
      ? new https.Agent(options)
      : new http.Agent(options);
  return { agent, destroy: () => agent?.destroy() };
}

/**
 * The request that carries one plain-HTTP request onwards: to the target (pinned lookup, kept-alive pool), to an http(s)
 * upstream in absolute form with its Proxy-Authorization, or over a SOCKS upstream tunnel (a connection per request).
 */
export function forwardRequest(options: {
  url: URL;
  method: string;
  headers: string[];
  lookup: PinnedLookup | undefined;
  upstream: Upstream | undefined;
  targeting: ResidentialTargeting | undefined;
  agents: Agents;
  /** Aborts when the customer leaves: a connection through a SOCKS provider not yet made is dropped. */
  signal?: AbortSignal;
}): http.ClientRequest {
  const { url, method, headers, upstream, targeting, agents, signal } = options;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 80);
  const path = `${url.pathname}${url.search}`;
  if (!upstream) {
    return http.request({
      host,
      port,
      method,
      path,
      headers,
      agent: agents.agent,
      setHost: false,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
  }
  const proxy = new URL(upstream.url);
  if (proxy.protocol.startsWith('socks')) {
    return http.request({
      host,
      port,
      method,
      path,
      headers,
      setHost: false,
      // No agent (not `agent: false`, with which Node makes one of its own and ignores createConnection): a connection
      // through the provider for each request.
      createConnection: (_options, created) => {
        socksConnection(proxy, upstream, targeting, { host, port }, signal).then(
          (socket) => created?.(null, socket),
          (error: Error) => created?.(error, undefined as unknown as net.Socket),
        );
        return undefined as unknown as net.Socket;
      },
    });
  }
  const client = proxy.protocol === 'https:' ? https : http;
  return client.request({
    host: proxy.hostname.replace(/^\[|\]$/g, ''),
    port: defaultPort(proxy),
    method,
    path: url.href,
    headers: [...headers, 'Proxy-Authorization', basicAuthorization(proxy, targeting, upstream.usernameTemplate)],
    agent: agents.agent,
    setHost: false,
  });
}

import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { ResidentialTargeting } from '@storefront/contract/residential';
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
}): Promise<net.Socket> {
  const { host, port, upstream, targeting } = options;
  try {
    if (!upstream) {
      const socket = net.connect({
        host,
        port,
        allowHalfOpen: true,
        noDelay: true,
        ...(options.lookup ? { lookup: options.lookup } : {}),
      });
      return await connected(socket, 'connect');
    }
    const url = new URL(upstream.url);
    if (url.protocol.startsWith('socks')) {
      const { SocksClient } = await import('socks');
      const { socket } = await SocksClient.createConnection({
        proxy: {
          host: url.hostname.replace(/^\[|\]$/g, ''),
          port: defaultPort(url),
          type: url.protocol.startsWith('socks4') ? 4 : 5,
          userId: upstreamUsername(upstream.usernameTemplate, decodeURIComponent(url.username), targeting),
          password: decodeURIComponent(url.password),
        },
        command: 'connect',
        destination: { host, port },
        timeout: CONNECT_TIMEOUT_MS,
      });
      socket.allowHalfOpen = true;
      socket.setNoDelay(true);
      return socket;
    }
    const proxyHost = url.hostname.replace(/^\[|\]$/g, '');
    const socket =
      url.protocol === 'https:'
        ? await connected(
            tls.connect({
              host: proxyHost,
              port: defaultPort(url),
              servername: net.isIP(proxyHost) ? undefined : proxyHost,
            }),
            'secureConnect',
          )
        : await connected(net.connect({ host: proxyHost, port: defaultPort(url), noDelay: true }), 'connect');
    socket.allowHalfOpen = true;
    const authority = net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
    socket.write(
      `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n` +
        `Proxy-Authorization: ${basicAuthorization(url, targeting, upstream.usernameTemplate)}\r\n\r\n`,
    );
    await upstreamTunnelAnswer(socket, authority);
    return socket;
  } catch (error) {
    throw outboundError(error, host, port);
  }
}

/** Reads the provider's answer to CONNECT; anything but 2xx is refused (the provider's status is not passed on). */
function upstreamTunnelAnswer(socket: net.Socket, authority: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > 16_384)
          done(new OutboundError('The upstream provider answered CONNECT with too long a head.', 502));
        return;
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString('latin1'))?.[1] ?? 0);
      const rest = head.subarray(end + 4);
      if (status >= 200 && status < 300) {
        if (rest.length > 0) socket.unshift(rest);
        done();
      } else {
        done(new OutboundError(`The upstream provider refused ${authority} (HTTP ${status}).`, 502));
      }
    };
    const onClose = () => done(new OutboundError('The upstream provider closed the connection.', 502));
    const done = (error?: Error) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onClose);
      socket.pause();
      if (error) {
        socket.destroy();
        reject(error);
      } else resolve();
    };
    socket.on('data', onData);
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
}): http.ClientRequest {
  const { url, method, headers, upstream, targeting, agents } = options;
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
      agent: false,
      createConnection: (_options, created) => {
        openConnection({ host, port, lookup: undefined, upstream, targeting }).then(
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

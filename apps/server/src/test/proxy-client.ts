import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';

/**
 * Tools for the gateway's tests and benchmark: a target web server on loopback and a client that speaks to a proxy over a
 * raw socket, so that every byte sent and received is known exactly (the gateway bills both directions).
 */

export interface TargetServer {
  port: number;
  /** Bytes of request bodies the target received. */
  uploaded(): number;
  close(): Promise<void>;
}

/**
 * GET /bytes?n=N answers N bytes (in 64 KB chunks, `delay` ms apart when given); POST /upload reads the body and answers
 * its length; anything else answers "ok".
 */
export async function startTargetServer(
  host = '127.0.0.1',
  /** How long an idle kept-alive connection stays open; short in tests, so that closing is quick. */
  keepAliveTimeout = 100,
): Promise<TargetServer> {
  let uploaded = 0;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://target');
    if (url.pathname === '/bytes') {
      let left = Number(url.searchParams.get('n') ?? '0');
      const delay = Number(url.searchParams.get('delay') ?? '0');
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(left) });
      const send = () => {
        while (left > 0) {
          const part = chunk.subarray(0, Math.min(chunk.length, left));
          left -= part.length;
          const more = response.write(part);
          if (delay > 0 && left > 0) {
            setTimeout(send, delay);
            return;
          }
          if (!more && left > 0) {
            response.once('drain', send);
            return;
          }
        }
        response.end();
      };
      send();
      return;
    }
    if (url.pathname === '/upload') {
      let length = 0;
      request.on('data', (part: Buffer) => {
        length += part.length;
        uploaded += part.length;
      });
      request.on('end', () => response.end(String(length)));
      return;
    }
    response.end('ok');
  });
  server.keepAliveTimeout = keepAliveTimeout;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    uploaded: () => uploaded,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ProxyExchange {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Bytes the client wrote to the proxy and read from it. */
  sent: number;
  received: number;
  /** Whether the proxy closed the connection before the answer was whole. */
  cut: boolean;
  /** With `halfOpen`: the client's socket, still open on its side (the test closes it). */
  socket?: net.Socket;
}

export const basicAuth = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

function parseHead(raw: Buffer) {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(lines[0]?.split(' ')[1] ?? '0');
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, bodyStart: end + 4 };
}

/** An HTTP answer read from `raw`; without a whole head, its bytes as the body of a cut answer (status 0). */
function answerOf(raw: Buffer, sent: number, received: number): ProxyExchange {
  const head = parseHead(raw);
  const body = head ? raw.subarray(head.bodyStart) : raw;
  const length = head?.headers['content-length'];
  return {
    status: head?.status ?? 0,
    headers: head?.headers ?? {},
    body,
    sent,
    received,
    cut: !head || (length !== undefined && body.length < Number(length)),
  };
}

/** What every exchange may be given: `localAddress` is the client's source address (another 127.x is another client). */
export interface ExchangeOptions {
  onData?: (received: number, socket: net.Socket) => void;
  localAddress?: string;
  /** Written first and not counted as sent: what a load balancer puts before the client's bytes (a PROXY header). */
  prefix?: Buffer;
  /**
   * The client never ends its side (as one that keeps a connection for as long as it likes): the exchange is over when
   * the proxy ends its own, and the socket is handed back open.
   */
  halfOpen?: boolean;
}

/** One exchange: writes `request` (and `body`) on a new socket to the proxy and reads until the proxy closes it. */
export function exchange(
  proxyPort: number,
  request: string,
  options: ExchangeOptions & { body?: Buffer } = {},
): Promise<ProxyExchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({
      port: proxyPort,
      host: '127.0.0.1',
      localAddress: options.localAddress,
      allowHalfOpen: options.halfOpen,
    });
    const chunks: Buffer[] = [];
    let received = 0;
    let sent = 0;
    socket.on('connect', () => {
      if (options.prefix) socket.write(options.prefix);
      const head = Buffer.from(request, 'latin1');
      sent += head.length;
      socket.write(head);
      if (options.body) {
        sent += options.body.length;
        socket.write(options.body);
      }
    });
    socket.on('data', (data: Buffer) => {
      chunks.push(data);
      received += data.length;
      options.onData?.(received, socket);
    });
    socket.on('error', () => {});
    const over = () => {
      const raw = Buffer.concat(chunks);
      if (raw.length === 0) reject(new Error('the proxy closed the connection without an answer'));
      else resolve({ ...answerOf(raw, sent, received), ...(options.halfOpen && { socket }) });
    };
    socket.on(options.halfOpen ? 'end' : 'close', over);
  });
}

/** A plain-HTTP request through the proxy (absolute URL in the request line). */
export function httpThroughProxy(
  proxyPort: number,
  target: string,
  auth: string | undefined,
  options: ExchangeOptions & { method?: string; body?: Buffer } = {},
) {
  const url = new URL(target);
  const lines = [
    `${options.method ?? 'GET'} ${url.href} HTTP/1.1`,
    `Host: ${url.host}`,
    'Connection: close',
    ...(auth ? [`Proxy-Authorization: ${auth}`] : []),
    ...(options.body ? [`Content-Length: ${options.body.length}`] : []),
  ];
  return exchange(proxyPort, `${lines.join('\r\n')}\r\n\r\n`, options);
}

/**
 * A CONNECT tunnel through the proxy to `host:port`, then one HTTP request inside it (what an HTTPS client does, minus the
 * TLS). The answer read is the tunnel's whole stream: the proxy's "200 Connection Established" and then the target's answer.
 */
export async function connectThroughProxy(
  proxyPort: number,
  hostPort: string,
  auth: string | undefined,
  path: string,
  options: ExchangeOptions = {},
): Promise<ProxyExchange & { tunnel: ProxyExchange | undefined }> {
  const connect = [
    `CONNECT ${hostPort} HTTP/1.1`,
    `Host: ${hostPort}`,
    ...(auth ? [`Proxy-Authorization: ${auth}`] : []),
  ];
  const inner = `GET ${path} HTTP/1.1\r\nHost: ${hostPort}\r\nConnection: close\r\n\r\n`;
  const result = await exchange(proxyPort, `${connect.join('\r\n')}\r\n\r\n${inner}`, options);
  // The raw stream holds the proxy's head, then the target's head and body: read the target's from the proxy's body.
  const granted = result.status === 200 && parseHead(result.body) !== undefined;
  return { ...result, tunnel: granted ? answerOf(result.body, result.sent, result.received) : undefined };
}

/** What a SOCKS 5 exchange came to: each step's answer, and the tunnel's stream when the request was granted. */
export interface SocksExchange {
  /** The method the proxy chose (0x00 none, 0x02 password, 0xff none acceptable). */
  method: number;
  /** RFC 1929 status (0 = accepted), when a password was sent. */
  authStatus: number | undefined;
  /** RFC 1928 reply code to the request (0 = succeeded), when one came. */
  reply: number | undefined;
  /** The target's answer read through the tunnel, when granted. */
  tunnel: ProxyExchange | undefined;
  /** Every byte the client wrote to the proxy and read from it, handshake included. */
  sent: number;
  received: number;
  /** With `halfOpen`: the client's socket, still open on its side (the test closes it). */
  socket?: net.Socket;
}

/**
 * A SOCKS 5 client on a raw socket, step by step as RFC 1928 and 1929 say (each message waits for the answer before),
 * so every byte is counted: greeting, username and password when given, the request (`command` 1 CONNECT, 2 BIND, 3 UDP
 * ASSOCIATE), then one HTTP request inside the tunnel.
 */
export function socksThroughProxy(
  proxyPort: number,
  credentials: { username: string; password: string } | undefined,
  target: { host: string; port: number; type?: 'ipv4' | 'ipv6' | 'domain' },
  path: string,
  options: ExchangeOptions & { command?: number; methods?: number[] } = {},
): Promise<SocksExchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({
      port: proxyPort,
      host: '127.0.0.1',
      localAddress: options.localAddress,
      allowHalfOpen: options.halfOpen,
    });
    let buffered = Buffer.alloc(0);
    let stage: 'method' | 'auth' | 'reply' | 'tunnel' = 'method';
    const result: SocksExchange = {
      method: -1,
      authStatus: undefined,
      reply: undefined,
      tunnel: undefined,
      sent: 0,
      received: 0,
    };
    const tunnelChunks: Buffer[] = [];
    const write = (data: Buffer | string) => {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
      result.sent += bytes.length;
      socket.write(bytes);
    };
    const request = () => {
      write(socksRequest(target, options.command ?? 0x01));
      stage = 'reply';
    };
    socket.on('connect', () => {
      if (options.prefix) socket.write(options.prefix);
      const methods = options.methods ?? (credentials ? [0x00, 0x02] : [0x00]);
      write(Buffer.from([0x05, methods.length, ...methods]));
    });
    socket.on('data', (data: Buffer) => {
      result.received += data.length;
      options.onData?.(result.received, socket);
      if (stage === 'tunnel') {
        tunnelChunks.push(data);
        return;
      }
      buffered = Buffer.concat([buffered, data]);
      if (stage === 'method' && buffered.length >= 2) {
        result.method = buffered[1] ?? -1;
        buffered = buffered.subarray(2);
        if (result.method === 0x02 && credentials) {
          write(socksPassword(credentials));
          stage = 'auth';
        } else if (result.method === 0x00) request();
        return;
      }
      if (stage === 'auth' && buffered.length >= 2) {
        result.authStatus = buffered[1];
        buffered = buffered.subarray(2);
        if (result.authStatus === 0) request();
        return;
      }
      if (stage === 'reply' && buffered.length >= 2) {
        result.reply = buffered[1];
        if (result.reply !== 0) return;
        const length = buffered[3] === 0x04 ? 22 : buffered[3] === 0x03 ? 7 + (buffered[4] ?? 0) : 10;
        if (buffered.length < length) return;
        tunnelChunks.push(buffered.subarray(length));
        stage = 'tunnel';
        write(`GET ${path} HTTP/1.1\r\nHost: ${target.host}:${target.port}\r\nConnection: close\r\n\r\n`);
      }
    });
    socket.on('error', () => {});
    socket.on(options.halfOpen ? 'end' : 'close', () => {
      if (options.halfOpen) result.socket = socket;
      if (stage === 'tunnel') result.tunnel = answerOf(Buffer.concat(tunnelChunks), result.sent, result.received);
      if (result.method === -1 && result.received === 0) reject(new Error('the proxy closed the connection at once'));
      else resolve(result);
    });
  });
}

/** RFC 1929: the username and password. */
function socksPassword(credentials: { username: string; password: string }): Buffer {
  const user = Buffer.from(credentials.username);
  const pass = Buffer.from(credentials.password);
  return Buffer.concat([Buffer.from([0x01, user.length]), user, Buffer.from([pass.length]), pass]);
}

/** RFC 1928: the request for `command` to the target, its address as `type` says or as the host reads. */
function socksRequest(target: { host: string; port: number; type?: 'ipv4' | 'ipv6' | 'domain' }, command: number) {
  const type = target.type ?? (net.isIPv4(target.host) ? 'ipv4' : net.isIPv6(target.host) ? 'ipv6' : 'domain');
  const port = Buffer.alloc(2);
  port.writeUInt16BE(target.port);
  let address: Buffer;
  if (type === 'ipv4') address = Buffer.from([0x01, ...target.host.split('.').map(Number)]);
  else if (type === 'ipv6') {
    const full = new URL(`http://[${target.host}]/`).hostname.slice(1, -1);
    address = Buffer.concat([Buffer.from([0x04]), ipv6Bytes(full)]);
  } else address = Buffer.concat([Buffer.from([0x03, target.host.length]), Buffer.from(target.host, 'latin1')]);
  return Buffer.concat([Buffer.from([0x05, command, 0x00]), address, port]);
}

/** The 16 bytes of an IPv6 address written in hex groups, `::` included. */
function ipv6Bytes(ip: string): Buffer {
  const [left = '', right = ''] = ip.split('::');
  const l = left ? left.split(':') : [];
  const r = right ? right.split(':') : [];
  const groups = ip.includes('::') ? [...l, ...Array(8 - l.length - r.length).fill('0'), ...r] : ip.split(':');
  const bytes = Buffer.alloc(16);
  for (const [index, group] of groups.entries()) bytes.writeUInt16BE(Number.parseInt(group, 16), index * 2);
  return bytes;
}

const SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);

/** A PROXY protocol version 2 header as HAProxy writes it: PROXY (or LOCAL) over TCP, then `tlv` bytes inside the length. */
export function proxyV2(
  source: { ip: string; port: number },
  options: { local?: boolean; tlv?: Buffer; destination?: string } = {},
): Buffer {
  const v6 = source.ip.includes(':');
  const address = (ip: string) => (v6 ? ipv6Bytes(ip) : Buffer.from(ip.split('.').map(Number)));
  const ports = Buffer.alloc(4);
  ports.writeUInt16BE(source.port, 0);
  ports.writeUInt16BE(8080, 2);
  const body = Buffer.concat([
    address(source.ip),
    address(options.destination ?? (v6 ? '::1' : '127.0.0.1')),
    ports,
    options.tlv ?? Buffer.alloc(0),
  ]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(body.length);
  return Buffer.concat([SIGNATURE, Buffer.from([options.local ? 0x20 : 0x21, v6 ? 0x21 : 0x11]), length, body]);
}

/** A PROXY protocol version 1 line naming `ip` as the client. */
export const proxyV1 = (ip: string) =>
  Buffer.from(
    `PROXY ${ip.includes(':') ? 'TCP6' : 'TCP4'} ${ip} ${ip.includes(':') ? '::1' : '127.0.0.1'} 40000 8080\r\n`,
    'latin1',
  );

/** Whether `socket` closes within `ms` (a bound on the wait for the event, not a pause). */
export const closesWithin = (socket: net.Socket, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (socket.destroyed) resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

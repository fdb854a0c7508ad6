import net from 'node:net';

/**
 * SOCKS version 5 towards customers (RFC 1928), with username and password (RFC 1929): the messages of the handshake,
 * read from a connection as they arrive, and the replies. Only CONNECT is served; BIND and UDP ASSOCIATE are answered
 * "command not supported". What the gateway decides (who the customer is, where it may go) is the caller's.
 */

export const SOCKS_VERSION = 0x05;

export const SocksMethod = { none: 0x00, password: 0x02, noneAcceptable: 0xff } as const;

/** RFC 1928 section 6. */
export const SocksReply = {
  succeeded: 0x00,
  generalFailure: 0x01,
  notAllowed: 0x02,
  networkUnreachable: 0x03,
  hostUnreachable: 0x04,
  connectionRefused: 0x05,
  ttlExpired: 0x06,
  commandNotSupported: 0x07,
  addressTypeNotSupported: 0x08,
} as const;
export type SocksReplyCode = (typeof SocksReply)[keyof typeof SocksReply];

export class SocksProtocolError extends Error {}

/**
 * The most a handshake reader holds before it stops reading: a whole handshake (greeting, RFC 1929 credentials and
 * request) is at most about 1 KB. What a client sends beyond it waits in the socket (its first payload, passed on once
 * the tunnel is open) rather than in memory.
 */
export const MAX_HANDSHAKE_BUFFER = 4096;

/**
 * Reads exact byte counts from a socket as its data arrives. Bytes read past the handshake are handed back with
 * `rest()` (a client may send its first payload with the CONNECT request).
 */
export class HandshakeReader {
  readonly #socket: net.Socket;
  #buffered: Buffer;
  #want = 0;
  #wake: (() => void) | undefined;
  #failed: Error | undefined;
  #stopped = false;
  readonly #onData = (chunk: Buffer) => {
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
    // Bounded: the socket is read again only when a read needs more than is held.
    if (this.#buffered.length >= MAX_HANDSHAKE_BUFFER) this.#socket.pause();
    if (this.#buffered.length >= this.#want) this.#wake?.();
  };
  readonly #onEnd = () => {
    this.#failed ??= new SocksProtocolError('the client closed the connection during the handshake');
    this.#wake?.();
  };

  constructor(socket: net.Socket, first: Buffer) {
    this.#socket = socket;
    this.#buffered = first;
    socket.on('data', this.#onData);
    socket.on('end', this.#onEnd);
    socket.on('close', this.#onEnd);
    if (first.length < MAX_HANDSHAKE_BUFFER) socket.resume();
  }

  /** Holds the bytes it has read so far (tests). */
  get buffered(): number {
    return this.#buffered.length;
  }

  async read(count: number): Promise<Buffer> {
    while (this.#buffered.length < count) {
      if (this.#failed) throw this.#failed;
      if (this.#stopped) throw new SocksProtocolError('the handshake reader was stopped');
      this.#want = count;
      this.#socket.resume();
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
    const bytes = this.#buffered.subarray(0, count);
    this.#buffered = this.#buffered.subarray(count);
    return bytes;
  }

  async byte(): Promise<number> {
    return (await this.read(1))[0] ?? 0;
  }

  /** Stops reading (again is nothing): what is unread stays in the socket. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#socket.pause();
    this.#socket.off('data', this.#onData);
    this.#socket.off('end', this.#onEnd);
    this.#socket.off('close', this.#onEnd);
  }

  /** Stops reading; the bytes that came after the handshake. */
  rest(): Buffer {
    this.stop();
    return this.#buffered;
  }
}

/** The greeting: the authentication methods the client offers. */
export async function readGreeting(reader: HandshakeReader): Promise<number[]> {
  const version = await reader.byte();
  if (version !== SOCKS_VERSION) throw new SocksProtocolError(`not SOCKS version 5 (got ${version})`);
  const count = await reader.byte();
  if (count === 0) throw new SocksProtocolError('a SOCKS greeting without methods');
  return [...(await reader.read(count))];
}

/** RFC 1929: the username and password. */
export async function readCredentials(reader: HandshakeReader): Promise<{ username: string; password: string }> {
  const version = await reader.byte();
  if (version !== 0x01) throw new SocksProtocolError(`not username/password version 1 (got ${version})`);
  const username = (await reader.read(await reader.byte())).toString('utf8');
  const password = (await reader.read(await reader.byte())).toString('utf8');
  return { username, password };
}

export type SocksRequest =
  | { command: number; host: string; port: number; addressType: 'ipv4' | 'domain' | 'ipv6' }
  | { command: number; unsupportedAddressType: number };

/** The request: command and destination. */
export async function readRequest(reader: HandshakeReader): Promise<SocksRequest> {
  const [version = 0, command = 0, , addressType = 0] = await reader.read(4);
  if (version !== SOCKS_VERSION) throw new SocksProtocolError(`not a SOCKS 5 request (version ${version})`);
  let host: string;
  let type: 'ipv4' | 'domain' | 'ipv6';
  if (addressType === 0x01) {
    host = [...(await reader.read(4))].join('.');
    type = 'ipv4';
  } else if (addressType === 0x03) {
    const length = await reader.byte();
    host = (await reader.read(length)).toString('latin1');
    type = 'domain';
  } else if (addressType === 0x04) {
    const bytes = await reader.read(16);
    const groups: string[] = [];
    for (let offset = 0; offset < 16; offset += 2) groups.push(bytes.readUInt16BE(offset).toString(16));
    host = groups.join(':');
    type = 'ipv6';
  } else {
    return { command, unsupportedAddressType: addressType };
  }
  const port = (await reader.read(2)).readUInt16BE(0);
  return { command, host, port, addressType: type };
}

export const methodChoice = (method: number) => Buffer.from([SOCKS_VERSION, method]);

export const credentialsStatus = (ok: boolean) => Buffer.from([0x01, ok ? 0x00 : 0x01]);

/** A reply to the request, with the address the gateway connected from (or 0.0.0.0:0 when there is none). */
export function reply(code: SocksReplyCode, bound?: { address?: string; port?: number }): Buffer {
  const address = bound?.address ?? '0.0.0.0';
  const port = Buffer.alloc(2);
  port.writeUInt16BE(bound?.port ?? 0);
  if (net.isIPv6(address)) {
    const bytes = Buffer.alloc(16);
    const full = expandIpv6(address);
    for (let index = 0; index < 8; index++) bytes.writeUInt16BE(Number.parseInt(full[index] ?? '0', 16), index * 2);
    return Buffer.concat([Buffer.from([SOCKS_VERSION, code, 0x00, 0x04]), bytes, port]);
  }
  const octets = net.isIPv4(address) ? address.split('.').map(Number) : [0, 0, 0, 0];
  return Buffer.concat([Buffer.from([SOCKS_VERSION, code, 0x00, 0x01, ...octets]), port]);
}

/** The eight groups of an IPv6 address (an embedded IPv4 tail turned into two groups). */
function expandIpv6(address: string): string[] {
  let text = address.split('%')[0] ?? '';
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = rest === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right];
}

/** The reply for a failed connection attempt, by the system's error code. */
export function replyForError(code: string | undefined): SocksReplyCode {
  switch (code) {
    case 'ECONNREFUSED':
      return SocksReply.connectionRefused;
    case 'ENETUNREACH':
      return SocksReply.networkUnreachable;
    case 'EHOSTUNREACH':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
      return SocksReply.hostUnreachable;
    default:
      return SocksReply.generalFailure;
  }
}

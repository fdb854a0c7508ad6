import net from 'node:net';

/**
 * The PROXY protocol (HAProxy's proxy-protocol.txt, versions 1 and 2): a TCP load balancer starts each connection with
 * a header naming the client's address, since the gateway otherwise sees only the balancer's. Only the start of a
 * connection is read as a header, and only when GATEWAY_PROXY_PROTOCOL is set: what the client itself sends afterwards
 * is never taken for an address.
 *
 * Written here rather than taken from npm: proxy-protocol-js (the one maintained parser) parses a complete buffer only,
 * loops without end on a truncated version 1 line, and reads a version 2 header's TLVs as the client's data (it ignores
 * the header's length field), so it cannot frame a stream.
 */

/** A header read: its length in bytes, and the client's address (undefined for LOCAL, UNKNOWN or a non-IP family). */
export interface ProxyHeader {
  length: number;
  clientIp: string | undefined;
}

export class ProxyProtocolError extends Error {}

const V1_PREFIX = Buffer.from('PROXY ', 'latin1');
/** Version 1's longest line, CRLF included. */
const V1_MAX = 107;
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
/** Version 2 headers above this (addresses and TLVs) are refused: a balancer sends a few dozen bytes. */
const V2_MAX = 4096;

const startsLike = (data: Buffer, prefix: Buffer) =>
  data.subarray(0, prefix.length).equals(prefix.subarray(0, Math.min(prefix.length, data.length)));

/**
 * Reads the header at the start of `data`: the header, undefined while more bytes are needed, or a ProxyProtocolError
 * when the connection does not start with a valid one.
 */
export function parseProxyHeader(data: Buffer): ProxyHeader | undefined {
  if (data.length === 0) return undefined;
  if (startsLike(data, V2_SIGNATURE)) return data.length < 16 ? undefined : parseV2(data);
  if (startsLike(data, V1_PREFIX)) return data.length < V1_PREFIX.length ? undefined : parseV1(data);
  throw new ProxyProtocolError('the connection does not start with a PROXY protocol header');
}

function parseV1(data: Buffer): ProxyHeader | undefined {
  const end = data.subarray(0, V1_MAX).indexOf('\r\n');
  if (end < 0) {
    if (data.length >= V1_MAX) throw new ProxyProtocolError('PROXY v1 line longer than 107 bytes');
    return undefined;
  }
  const fields = data.subarray(0, end).toString('latin1').split(' ');
  const length = end + 2;
  if (fields[1] === 'UNKNOWN') return { length, clientIp: undefined };
  const [, family, source, destination, sourcePort, destinationPort, ...rest] = fields;
  const version = family === 'TCP4' ? 4 : family === 'TCP6' ? 6 : 0;
  if (
    version === 0 ||
    rest.length > 0 ||
    net.isIP(source ?? '') !== version ||
    net.isIP(destination ?? '') !== version ||
    !isPort(sourcePort) ||
    !isPort(destinationPort)
  ) {
    throw new ProxyProtocolError('malformed PROXY v1 line');
  }
  return { length, clientIp: source };
}

const isPort = (value: string | undefined) =>
  value !== undefined && /^(0|[1-9]\d{0,4})$/.test(value) && Number(value) <= 65_535;

function parseV2(data: Buffer): ProxyHeader | undefined {
  const versionCommand = data[12] ?? 0;
  if (versionCommand >> 4 !== 2) throw new ProxyProtocolError('PROXY v2 header of another version');
  const command = versionCommand & 0x0f;
  if (command > 1) throw new ProxyProtocolError('PROXY v2 header with an unknown command');
  const family = (data[13] ?? 0) >> 4;
  const addressLength = data.readUInt16BE(14);
  if (addressLength > V2_MAX) throw new ProxyProtocolError('PROXY v2 header too long');
  const length = 16 + addressLength;
  if (data.length < length) return undefined;
  // LOCAL: the balancer's own connection (a health check); its address is the socket's.
  if (command === 0) return { length, clientIp: undefined };
  if (family === 1) {
    if (addressLength < 12) throw new ProxyProtocolError('PROXY v2 IPv4 addresses cut short');
    return { length, clientIp: [...data.subarray(16, 20)].join('.') };
  }
  if (family === 2) {
    if (addressLength < 36) throw new ProxyProtocolError('PROXY v2 IPv6 addresses cut short');
    const groups: string[] = [];
    for (let offset = 16; offset < 32; offset += 2) groups.push(data.readUInt16BE(offset).toString(16));
    return { length, clientIp: groups.join(':') };
  }
  // UNSPEC or a UNIX socket: no IP address to go by.
  return { length, clientIp: undefined };
}

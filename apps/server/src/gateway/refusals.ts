import http from 'node:http';
import type { Socket } from 'node:net';
import { counted } from '@storefront/contract/plurals.ts';
import type { Connection } from './connections.ts';
import type { Refusal } from './credentials.ts';
import type { OutboundError } from './upstream.ts';

/** A refusal not flushed to the client by then (it does not read) is dropped anyway. */
const REFUSAL_FLUSH_MS = 10_000;
const REALM = 'Residential proxies';

export const gatewayMessages = {
  credentialsRequired: 'Proxy credentials required: use the residential username and password from your dashboard.',
  wrongCredentials: 'Wrong proxy username or password.',
  blocked: 'This account is blocked. Please contact support.',
  usedUp: (purchaseUrl: string) => `Your residential data is used up. Buy more at ${purchaseUrl}`,
  tooManyFailures: (minutes: number) =>
    `Too many wrong proxy usernames or passwords from your address. Try again in ${counted(minutes, 'minute', 'minutes')}.`,
  notThisIp: (ip: string) =>
    `This account takes connections only from its authorised IPs, and ${ip} is not one of them (Settings, Authorised IPs).`,
  allowanceUsedUp:
    "This proxy user's data allowance is used up. Its owner can raise it on the dashboard (Proxies, Residential, Proxy Users).",
  paused: 'This proxy user is paused. Its owner can resume it on the dashboard (Proxies, Residential, Proxy Users).',
  countryNotAllowed: (country: string | undefined) =>
    country === undefined
      ? 'This proxy user may only target the countries its owner allowed: add -country-XX to the username.'
      : `This proxy user may not target ${country}: its owner allowed other countries.`,
  tooManyConnections: (max: number) =>
    `This proxy user may hold ${counted(max, 'connection', 'connections')} at once through this gateway: close one first.`,
  notAProxyRequest:
    'This is a proxy: send the full URL (GET http://example.com/ HTTP/1.1) or CONNECT host:port, with your residential credentials.',
};

/** The name the gateway gives itself in Proxy-Status (RFC 9209: a token or string naming the intermediary). */
export const GATEWAY_NAME = 'residential-gateway';

/** The error types of RFC 9209's registry the gateway answers with (section 2.3). */
export type ProxyErrorType =
  | 'http_request_denied'
  | 'http_request_error'
  | 'destination_ip_prohibited'
  | 'dns_error'
  | 'dns_timeout'
  | 'connection_refused'
  | 'connection_timeout'
  | 'destination_ip_unroutable'
  | 'destination_unavailable'
  | 'proxy_internal_error';

/** An HTTP answer the gateway gives instead of carrying a request: its status, words and Proxy-Status error type. */
export interface HttpRefusal {
  status: number;
  message: string;
  error: ProxyErrorType;
  headers: Record<string, string>;
}

/** A Structured Fields string (RFC 8941): printable ASCII, with quotes and backslashes escaped. */
const sfString = (text: string) => `"${text.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, (c) => `\\${c}`)}"`;

/** The Proxy-Status header of a refusal or failure (RFC 9209): who answered, the error type and the words. */
export const proxyStatus = (error: ProxyErrorType, details: string) =>
  `${GATEWAY_NAME}; error=${error}; details=${sfString(details)}`;

/** The gateway's own failure to carry a request (a bug, or a resource gone): not the customer's doing. */
export const internalFailure: HttpRefusal = {
  status: 502,
  message: 'The gateway could not carry this request.',
  error: 'proxy_internal_error',
  headers: {},
};

export const notAProxyRequest: HttpRefusal = {
  status: 400,
  message: gatewayMessages.notAProxyRequest,
  error: 'http_request_error',
  headers: {},
};

/** The RFC 9209 error type of a connection onwards that could not be made. */
function outboundErrorType(error: OutboundError): ProxyErrorType {
  if (error.status === 403) return 'destination_ip_prohibited';
  switch (error.code) {
    case 'ENOTFOUND':
      return 'dns_error';
    case 'EAI_AGAIN':
      return 'dns_timeout';
    case 'ECONNREFUSED':
      return 'connection_refused';
    case 'ETIMEDOUT':
      return 'connection_timeout';
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return 'destination_ip_unroutable';
  }
  return error.status === 504 ? 'connection_timeout' : 'destination_unavailable';
}

/** The answer to a connection onwards that could not be made (refused by the egress rules, or failed). */
export function outboundRefusal(error: OutboundError): HttpRefusal {
  return { status: error.status, message: error.message, error: outboundErrorType(error), headers: {} };
}

/** The HTTP answer of an authentication refusal: status, message and the headers it needs. */
export function httpRefusal(connection: Connection, outcome: Refusal, purchaseUrl: string): HttpRefusal {
  switch (outcome.refused) {
    case 'credentialsRequired':
    case 'wrongCredentials':
      return {
        status: 407,
        message: gatewayMessages[outcome.refused],
        error: 'http_request_denied',
        headers: { 'Proxy-Authenticate': `Basic realm="${REALM}"` },
      };
    case 'tooManyFailures': {
      const seconds = Math.max(1, Math.ceil((outcome.retryMs ?? 0) / 1000));
      return {
        status: 429,
        message: gatewayMessages.tooManyFailures(Math.ceil(seconds / 60)),
        error: 'http_request_denied',
        headers: { 'Retry-After': String(seconds) },
      };
    }
    case 'notThisIp':
      return {
        status: 403,
        message: gatewayMessages.notThisIp(connection.clientIp),
        error: 'http_request_denied',
        headers: {},
      };
    case 'blocked':
      return { status: 403, message: gatewayMessages.blocked, error: 'http_request_denied', headers: {} };
    case 'usedUp':
      return { status: 402, message: gatewayMessages.usedUp(purchaseUrl), error: 'http_request_denied', headers: {} };
    case 'allowanceUsedUp':
      return { status: 402, message: gatewayMessages.allowanceUsedUp, error: 'http_request_denied', headers: {} };
    case 'paused':
      return { status: 403, message: gatewayMessages.paused, error: 'http_request_denied', headers: {} };
    case 'countryNotAllowed':
      return {
        status: 403,
        message: gatewayMessages.countryNotAllowed(outcome.country),
        error: 'http_request_denied',
        headers: {},
      };
    case 'tooManyConnections':
      return {
        status: 429,
        message: gatewayMessages.tooManyConnections(outcome.maxConnections ?? 1),
        error: 'http_request_denied',
        headers: {},
      };
  }
}

/**
 * Answers a refusal and closes the connection: destroyed once the answer is flushed. Ending alone would leave it
 * half-open for as long as the client keeps its side (the listener allows half-open connections, for tunnels).
 */
export function refuse(socket: Socket, message: Buffer): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), REFUSAL_FLUSH_MS);
  socket.once('close', () => clearTimeout(timer));
  socket.end(message, () => socket.destroy());
}

/** Whether a request has a body the gateway has not read whole (nor will: it is refused). */
function bodyLeft(request: http.IncomingMessage): boolean {
  const declared = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length']) > 0;
  return declared && !request.complete;
}

function answer(response: http.ServerResponse, refusal: HttpRefusal): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = Buffer.from(refusal.message);
  response
    .writeHead(refusal.status, {
      ...refusal.headers,
      'Proxy-Status': proxyStatus(refusal.error, refusal.message),
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': body.length,
    })
    .end(body);
}

/** Answers a request the gateway does not carry, closing the connection when it has a body left unread. */
export function refuseRequest(request: http.IncomingMessage, response: http.ServerResponse, refusal: HttpRefusal) {
  // Kept alive, the server would drain that body for as long as the client sends it; after a refused Upgrade it
  // would read and drop whatever comes next. Either is closed once answered.
  const upgrade = request.headers.upgrade !== undefined;
  const close = bodyLeft(request) || upgrade;
  answer(response, close ? { ...refusal, headers: { ...refusal.headers, Connection: 'close' } } : refusal);
  if (upgrade) response.once('finish', () => request.socket.destroySoon());
}

/** Answers a CONNECT the gateway does not carry, on its raw socket, and closes. */
export function refuseConnect(socket: Socket, refusal: HttpRefusal): void {
  const body = Buffer.from(refusal.message);
  const headers = { ...refusal.headers, 'Proxy-Status': proxyStatus(refusal.error, refusal.message) };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const head =
    `HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status] ?? ''}\r\n${lines.join('')}` +
    `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  refuse(socket, Buffer.concat([Buffer.from(head, 'latin1'), body]));
}

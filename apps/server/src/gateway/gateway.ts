import http from 'node:http';
import net, { type Socket } from 'node:net';
import { counted, parseTargetedUsername, type ResidentialTargeting } from '@storefront/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { socketIp } from '../lib/ip-address.ts';
import {
  AccountCache,
  allowedFrom,
  type GatewayAccount,
  mustStop,
  passwordMatches,
  remainingBytes,
} from './accounts.ts';
import { AuthFailureLimit, sourceKey } from './auth-failures.ts';
import type { GatewayConfig } from './config.ts';
import { Egress, EgressRefused, type PinnedLookup } from './egress.ts';
import { Meter } from './meter.ts';
import { parseProxyHeader } from './proxy-protocol.ts';
import {
  credentialsStatus,
  HandshakeReader,
  methodChoice,
  readCredentials,
  readGreeting,
  readRequest,
  replyForError,
  SOCKS_VERSION,
  SocksMethod,
  SocksReply,
  reply as socksReply,
} from './socks5.ts';
import { type SqlClient, sqlClientOf } from './sql.ts';
import { createAgents, forwardRequest, type Onward, OutboundError, openConnection, outboundError } from './upstream.ts';

/** One client connection to the gateway and the account its traffic is billed to. */
interface Connection {
  socket: Socket;
  /** The customer's address: the socket's, or the one the load balancer's PROXY header named. */
  clientIp: string;
  /** What failed authentications are counted under (the address, or its IPv6 /64). */
  source: string;
  account: GatewayAccount | undefined;
  /** How the account was proven: its password, or the address being one of its authorised IPs. */
  via: 'password' | 'ip' | undefined;
  /** The account's password version when this connection authenticated: a newer one cuts it. */
  passwordVersion: number;
  targeting: ResidentialTargeting | undefined;
  /** The Proxy-Authorization that authenticated the last request: the same header again is not checked again. */
  authorization: string | undefined;
  /** Bytes read from the client already handed to the meter (or not the customer's: a PROXY header). */
  meteredRead: number;
  /** Bytes written to the client already handed to the meter. */
  meteredWritten: number;
  /** The source this connection is counted under for the limit of open connections (once known). */
  countedAs: string | undefined;
}

export interface Gateway {
  port: number;
  /** Open client connections (HTTP, CONNECT and SOCKS 5 alike, authenticated or not yet). */
  connections(): number;
  /** Bytes carried for customers since the start, by direction as the customer sees it (the meter's own count). */
  carried(): { upload: number; download: number };
  /** Connections closed at once since the start, by why: their source address had its fill of open connections. */
  refused(): { perIpLimit: number };
  /** Whether it accepts connections (false once its close has begun). */
  listening(): boolean;
  /** Writes what is metered so far (tests, and the periodic batch). */
  flush(): Promise<void>;
  /** Stops accepting, cuts the open connections, meters them and writes the last batch. */
  close(): Promise<void>;
}

/**
 * How often every open connection is metered (for traffic that writes little back to the client: uploads), and the
 * accounts of open connections are checked and, once their read is about to be `cacheMs` old, read again.
 */
const METER_TICK_MS = 100;
/** A failing re-read of accounts (database down) is logged at most this often. */
const REFRESH_ERROR_LOG_MS = 30_000;
/** A connection that says nothing (or no whole PROXY header, or no whole SOCKS handshake) for this long is closed. */
const HANDSHAKE_TIMEOUT_MS = 30_000;
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
  notAProxyRequest:
    'This is a proxy: send the full URL (GET http://example.com/ HTTP/1.1) or CONNECT host:port, with your residential credentials.',
};

type Refused = 'credentialsRequired' | 'wrongCredentials' | 'tooManyFailures' | 'notThisIp' | 'blocked' | 'usedUp';
type Granted = { account: GatewayAccount; targeting: ResidentialTargeting | undefined; via: 'password' | 'ip' };
type Outcome = Granted | { refused: Refused; retryMs?: number };

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
function endToEnd(raw: string[], keepChunked: boolean): string[] {
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

interface Credentials {
  username: string;
  password: string;
}

function credentialsOf(header: string | undefined): Credentials | undefined {
  const encoded = header === undefined ? undefined : /^\s*basic\s+(\S+)\s*$/i.exec(header)?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = colon < 0 ? decoded : decoded.slice(0, colon);
  // No username is how many clients begin (they send one after the 407): not counted as a failure.
  if (username === '') return undefined;
  return { username, password: colon < 0 ? '' : decoded.slice(colon + 1) };
}

/** `host:port` of a CONNECT (an IPv6 address in brackets), or undefined. */
function authorityOf(target: string | undefined): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]/]+)):(\d{1,5})$/.exec(target ?? '');
  const port = Number(match?.[3]);
  const host = match?.[1] ?? match?.[2];
  if (!host || !(port > 0 && port <= 65_535)) return undefined;
  return { host, port };
}

/** What a connection has sent before its first chunk. */
const NOTHING = Buffer.alloc(0);

/**
 * Answers a refusal and closes the connection: destroyed once the answer is flushed. Ending alone would leave it
 * half-open for as long as the client keeps its side (the listener allows half-open connections, for tunnels).
 */
function refuse(socket: Socket, message: Buffer): void {
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

const connectionKey = Symbol('gateway connection');
type GatewaySocket = Socket & { [connectionKey]?: Connection };

/**
 * The residential gateway (ARCHITECTURE section 6; docs/decisions/2026-11-25-gateway-own-server.md): one port that
 * serves HTTP (absolute-form requests and CONNECT) and SOCKS 5, told apart by the first byte of a connection (0x05 is
 * SOCKS; no HTTP method starts with it). It authenticates residential accounts by password, or by the customer's
 * authorised IPs without one; reads the list generator's targeting from the username; meters both directions of every
 * connection from its socket's counters into the account; refuses an account whose data is used up and cuts its
 * connections as they cross the limit; cuts every open connection of an account that is banned, blocked, gone, given a
 * new password, out of data elsewhere or no longer authorised from that address within `cacheMs`; refuses a source
 * address past its failed authentications; never connects to the host's own or special-purpose addresses; and goes out
 * directly or through the configured upstream provider. Behind a TCP load balancer (GATEWAY_PROXY_PROTOCOL) the
 * customer's address is read from the PROXY protocol header that starts each connection.
 */
export async function startGateway({
  db,
  config,
  log,
}: {
  /** The database: a drizzle database (in the server) or its driver alone (a gateway of its own). */
  db: Db | SqlClient;
  config: GatewayConfig;
  log: FastifyBaseLogger;
}): Promise<Gateway> {
  const sql = sqlClientOf(db);
  const meter = new Meter(sql);
  const accounts = new AccountCache({ sql, cacheMs: config.cacheMs, unwritten: (userId) => meter.unwritten(userId) });
  const connections = new Set<Connection>();
  const egress = new Egress({ allowPrivate: config.allowPrivateTargets });
  const authFailures = await AuthFailureLimit.create(config.authFailures, config.cacheMs, log);
  const agents = createAgents(config.upstream);
  /** Open connections by source address (an IPv6 /64), and the connections refused for being one too many. */
  const openPerSource = new Map<string, number>();
  let refusedPerIpLimit = 0;

  /** Counts the connection under its source; false, the connection destroyed, when the source has its fill. */
  const admit = (connection: Connection): boolean => {
    const open = openPerSource.get(connection.source) ?? 0;
    if (open >= config.maxConnectionsPerIp) {
      refusedPerIpLimit++;
      connection.socket.destroy();
      return false;
    }
    openPerSource.set(connection.source, open + 1);
    connection.countedAs = connection.source;
    return true;
  };
  const release = (connection: Connection) => {
    const source = connection.countedAs;
    if (source === undefined) return;
    connection.countedAs = undefined;
    const open = (openPerSource.get(source) ?? 1) - 1;
    if (open > 0) openPerSource.set(source, open);
    else openPerSource.delete(source);
  };

  const cut = (account: GatewayAccount) => {
    for (const connection of connections) if (connection.account === account) connection.socket.destroy();
  };

  /** Hands the connection's new bytes (both directions, as the client sees them) to the meter; cuts at the limit. */
  const meterConnection = (connection: Connection) => {
    const { account, socket } = connection;
    if (!account) return;
    const { bytesRead, bytesWritten } = socket;
    const upload = bytesRead - connection.meteredRead;
    const download = bytesWritten - connection.meteredWritten;
    if (upload <= 0 && download <= 0) return;
    connection.meteredRead = bytesRead;
    connection.meteredWritten = bytesWritten;
    meter.add(account, upload, download);
    if (remainingBytes(account) <= 0) cut(account);
  };

  /** Whether the connection's account may no longer carry it (as last read). */
  const revoked = ({ account, via, passwordVersion, clientIp }: Connection) =>
    account !== undefined &&
    (mustStop(account) ||
      (via === 'password' && (passwordVersion !== account.passwordVersion || !allowedFrom(account, clientIp))) ||
      (via === 'ip' && !account.authorizedIps.includes(clientIp)));

  let refreshing: Promise<void> | undefined;
  let refreshErrorLoggedAt = Number.NEGATIVE_INFINITY;
  /** Reads the accounts of open connections again when due, and cuts the connections they no longer allow. */
  const refreshOpenAccounts = () => {
    if (refreshing) return;
    const open = new Set<GatewayAccount>();
    for (const connection of connections) if (connection.account) open.add(connection.account);
    if (open.size === 0) return;
    refreshing = accounts
      .refresh(open, METER_TICK_MS)
      .then(() => {
        for (const connection of connections) if (revoked(connection)) connection.socket.destroy();
      })
      .catch((error: unknown) => {
        if (Date.now() - refreshErrorLoggedAt < REFRESH_ERROR_LOG_MS) return;
        refreshErrorLoggedAt = Date.now();
        log.error({ err: error }, 'gateway could not read the accounts of open connections again');
      })
      .finally(() => {
        refreshing = undefined;
      });
  };

  /**
   * Who the customer is: the failure limit of the source first (before any account is read), then the password (an
   * HTTP request's Proxy-Authorization header, or SOCKS credentials), or without credentials the authorised IPs; then
   * whether the account may carry anything from this address.
   */
  const authenticate = async (
    connection: Connection,
    given: { authorization: string | undefined } | Credentials | undefined,
  ): Promise<Outcome> => {
    const refusedMs = await authFailures.refusedFor(connection.source);
    if (refusedMs > 0) return { refused: 'tooManyFailures', retryMs: refusedMs };
    let granted: Granted;
    const known = connection.account;
    const authorization = given !== undefined && 'authorization' in given ? given.authorization : undefined;
    if (
      authorization !== undefined &&
      authorization === connection.authorization &&
      known !== undefined &&
      !known.gone &&
      connection.passwordVersion === known.passwordVersion
    ) {
      // The next request of a kept-alive connection with the same header: already checked, not decoded nor hashed again.
      granted = { account: known, targeting: connection.targeting, via: 'password' };
    } else {
      const credentials = given !== undefined && 'authorization' in given ? credentialsOf(authorization) : given;
      if (!credentials) {
        const account = await accounts.byAuthorizedIp(connection.clientIp);
        if (!account) return { refused: 'credentialsRequired' };
        granted = { account, targeting: undefined, via: 'ip' };
      } else {
        const targeting = parseTargetedUsername(credentials.username);
        const account = await accounts.get(targeting?.username ?? credentials.username);
        if (!account || !passwordMatches(account, credentials.password)) {
          await authFailures.fail(connection.source);
          return { refused: 'wrongCredentials' };
        }
        granted = { account, targeting, via: 'password' };
      }
    }
    const { account } = granted;
    if (granted.via === 'password' && !allowedFrom(account, connection.clientIp)) return { refused: 'notThisIp' };
    if (account.blocked) return { refused: 'blocked' };
    if (remainingBytes(account) <= 0) return { refused: 'usedUp' };
    return granted;
  };

  /** Bills the connection to the account from here on (what came before to the account it had). */
  const bind = (connection: Connection, granted: Granted, authorization?: string) => {
    meterConnection(connection);
    connection.account = granted.account;
    connection.via = granted.via;
    connection.passwordVersion = granted.account.passwordVersion;
    connection.targeting = granted.targeting;
    connection.authorization = granted.via === 'password' ? authorization : undefined;
  };

  /** The HTTP answer of a refusal: status, message and the headers it needs. */
  const httpRefusal = (
    connection: Connection,
    outcome: { refused: Refused; retryMs?: number },
  ): { status: number; message: string; headers: Record<string, string> } => {
    switch (outcome.refused) {
      case 'credentialsRequired':
      case 'wrongCredentials':
        return {
          status: 407,
          message: gatewayMessages[outcome.refused],
          headers: { 'Proxy-Authenticate': `Basic realm="${REALM}"` },
        };
      case 'tooManyFailures': {
        const seconds = Math.max(1, Math.ceil((outcome.retryMs ?? 0) / 1000));
        return {
          status: 429,
          message: gatewayMessages.tooManyFailures(Math.ceil(seconds / 60)),
          headers: { 'Retry-After': String(seconds) },
        };
      }
      case 'notThisIp':
        return { status: 403, message: gatewayMessages.notThisIp(connection.clientIp), headers: {} };
      case 'blocked':
        return { status: 403, message: gatewayMessages.blocked, headers: {} };
      case 'usedUp':
        return { status: 402, message: gatewayMessages.usedUp(config.purchaseUrl), headers: {} };
    }
  };

  /** Checks the target; the lookup to connect with, or the refusal as an OutboundError. */
  const checkTarget = async (host: string): Promise<PinnedLookup | undefined> => {
    try {
      return await egress.check(host, config.upstream === undefined);
    } catch (error) {
      if (error instanceof EgressRefused) {
        throw new OutboundError(error.message, error.cause === 'ENOTFOUND' ? 502 : 403, String(error.cause ?? ''));
      }
      throw error;
    }
  };

  /**
   * Both directions of a tunnel (CONNECT or SOCKS), metered from the client socket's counters after every chunk, so a
   * transfer that crosses the limit is cut within one chunk either way. Each side's end is passed on (half-close).
   */
  const splice = (connection: Connection, onward: Onward) => {
    const client = connection.socket;
    const target = onward.socket;
    // Towards the client. A chunk may be a view of a buffer the target reads into again (upstream.ts, Onward): while
    // the client has not taken it whole, the target is paused (again, should anything else have resumed it).
    const taken = () => {
      if (client.writableLength === 0) target.resume();
    };
    onward.take((chunk) => {
      client.write(chunk, taken);
      if (client.writableLength > 0) target.pause();
      meterConnection(connection);
    });
    target.on('end', () => client.end());
    // Towards the target: the client's chunks are buffers of their own (Node's streams).
    client.on('data', (chunk: Buffer) => {
      if (!target.write(chunk)) client.pause();
      meterConnection(connection);
    });
    target.on('drain', () => client.resume());
    client.on('end', () => target.end());
    target.on('error', () => {});
    // A target that ended has ended the client already ('end' above): a second end() would only build an error.
    target.on('close', (hadError) => {
      if (hadError) client.destroy();
      else if (!client.writableEnded) client.end();
    });
    client.on('close', () => target.destroy());
    client.resume();
  };

  /**
   * The connection onwards for a client's tunnel, dropped if the client's connection closes before it is made (no
   * longer wanted). The listener goes once it is made: an abort builds an error with its stack.
   */
  const openFor = async (socket: Socket, options: Omit<Parameters<typeof openConnection>[0], 'signal'>) => {
    const left = new AbortController();
    const abort = () => left.abort();
    if (socket.destroyed) abort();
    socket.once('close', abort);
    try {
      return await openConnection({ ...options, signal: left.signal });
    } finally {
      socket.off('close', abort);
    }
  };

  // --- HTTP: absolute-form requests and CONNECT ---

  const answer = (response: http.ServerResponse, status: number, message: string, headers = {}) => {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const body = Buffer.from(message);
    response
      .writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length })
      .end(body);
  };

  /** Answers a request the gateway does not carry, closing the connection when it has a body left unread. */
  const refuseRequest = (
    request: http.IncomingMessage,
    response: http.ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ) => {
    // Kept alive, the server would drain that body for as long as the client sends it; after a refused Upgrade it
    // would read and drop whatever comes next. Either is closed once answered.
    const upgrade = request.headers.upgrade !== undefined;
    answer(response, status, message, bodyLeft(request) || upgrade ? { ...headers, Connection: 'close' } : headers);
    if (upgrade) response.once('finish', () => request.socket.destroySoon());
  };

  /** Answers a CONNECT the gateway does not carry, and closes. */
  const rawAnswer = (socket: Socket, status: number, message: string, headers: Record<string, string> = {}) => {
    const body = Buffer.from(message);
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    refuse(
      socket,
      Buffer.concat([
        Buffer.from(
          `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n${lines.join('')}` +
            `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
          'latin1',
        ),
        body,
      ]),
    );
  };

  const onRequest = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const connection = (request.socket as GatewaySocket)[connectionKey];
    const target = request.url ?? '';
    let url: URL | undefined;
    if (/^http:\/\//i.test(target)) {
      try {
        url = new URL(target);
      } catch {}
    }
    if (!connection || !url) {
      refuseRequest(request, response, 400, gatewayMessages.notAProxyRequest);
      return;
    }
    const authorization = request.headers['proxy-authorization'];
    const outcome = await authenticate(connection, { authorization });
    if ('refused' in outcome) {
      const refusal = httpRefusal(connection, outcome);
      refuseRequest(request, response, refusal.status, refusal.message, refusal.headers);
      return;
    }
    bind(connection, outcome, authorization);
    let lookup: PinnedLookup | undefined;
    try {
      lookup = await checkTarget(url.hostname);
    } catch (error) {
      const refused = outboundError(error, url.hostname, Number(url.port || 80));
      refuseRequest(request, response, refused.status, refused.message);
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
      upstream: config.upstream,
      targeting: connection.targeting,
      agents,
      signal: left.signal,
    });
    onward.on('response', (incoming) => {
      response.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, endToEnd(incoming.rawHeaders, false));
      incoming.on('data', (chunk: Buffer) => {
        if (!response.write(chunk)) incoming.pause();
        meterConnection(connection);
      });
      response.on('drain', () => incoming.resume());
      incoming.on('end', () => response.end());
      incoming.on('error', () => response.destroy());
    });
    onward.on('error', (error) => {
      const failed = outboundError(error, url.hostname, Number(url.port || 80));
      refuseRequest(request, response, failed.status, failed.message);
    });
    // The client went away (or was cut) before the answer was whole: the onward request is dropped too.
    response.on('close', () => {
      if (response.writableFinished) return;
      onward.destroy();
      left.abort();
    });
    request.pipe(onward);
  };

  const onConnect = async (request: http.IncomingMessage, socket: Socket, head: Buffer) => {
    const connection = (socket as GatewaySocket)[connectionKey];
    const target = authorityOf(request.url);
    if (!connection || !target) {
      rawAnswer(socket, 400, gatewayMessages.notAProxyRequest);
      return;
    }
    const authorization = request.headers['proxy-authorization'];
    const outcome = await authenticate(connection, { authorization });
    if ('refused' in outcome) {
      const refusal = httpRefusal(connection, outcome);
      rawAnswer(socket, refusal.status, refusal.message, refusal.headers);
      return;
    }
    bind(connection, outcome, authorization);
    let onward: Onward;
    try {
      const lookup = await checkTarget(target.host);
      onward = await openFor(socket, { ...target, lookup, upstream: config.upstream, targeting: connection.targeting });
    } catch (error) {
      if (socket.destroyed) return;
      const failed = outboundError(error, target.host, target.port);
      rawAnswer(socket, failed.status, failed.message);
      return;
    }
    if (socket.destroyed) {
      onward.socket.destroy();
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) onward.socket.write(head);
    splice(connection, onward);
  };

  const httpServer = http.createServer(
    {
      // A proxied upload may take as long as it takes; only the request head has a time limit.
      requestTimeout: 0,
      headersTimeout: HANDSHAKE_TIMEOUT_MS,
      keepAliveTimeout: 60_000,
      requireHostHeader: false,
    },
    (request, response) => {
      onRequest(request, response).catch((error: unknown) => {
        log.warn({ err: error }, 'gateway request failed');
        refuseRequest(request, response, 502, 'The gateway could not carry this request.');
      });
    },
  );
  httpServer.on('connect', (request: http.IncomingMessage, socket: Socket, head: Buffer) => {
    onConnect(request, socket, head).catch((error: unknown) => {
      log.warn({ err: error }, 'gateway tunnel failed');
      socket.destroy();
    });
  });

  // --- SOCKS 5 ---

  /** The greeting and the authentication: who the customer is, or undefined once refused (answered, closing). */
  const socksAuthenticate = async (connection: Connection, reader: HandshakeReader): Promise<Outcome | undefined> => {
    const { socket } = connection;
    const methods = await readGreeting(reader);
    if (methods.includes(SocksMethod.password)) {
      socket.write(methodChoice(SocksMethod.password));
      const outcome = await authenticate(connection, await readCredentials(reader));
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
      const outcome = await authenticate(connection, undefined);
      if (!('refused' in outcome) || outcome.refused !== 'credentialsRequired') {
        socket.write(methodChoice(SocksMethod.none));
        return outcome;
      }
    }
    refuse(socket, methodChoice(SocksMethod.noneAcceptable));
    return undefined;
  };

  /** The connection onwards for a granted request, spliced to the client's; or the failure answered. */
  const socksOnward = async (connection: Connection, target: { host: string; port: number }, rest: Buffer) => {
    const { socket } = connection;
    let onward: Onward;
    try {
      const lookup = await checkTarget(target.host);
      onward = await openFor(socket, { ...target, lookup, upstream: config.upstream, targeting: connection.targeting });
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
    splice(connection, onward);
  };

  const serveSocks = async (connection: Connection, first: Buffer) => {
    const { socket } = connection;
    const reader = new HandshakeReader(socket, first);
    // Runs until the handshake is done and granted: a refused client that keeps its side is still cut.
    const timer = setTimeout(() => socket.destroy(), HANDSHAKE_TIMEOUT_MS);
    socket.once('close', () => clearTimeout(timer));
    try {
      const outcome = await socksAuthenticate(connection, reader);
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
      bind(connection, outcome);
      await socksOnward(connection, { host: request.host, port: request.port }, rest);
    } catch {
      socket.destroy();
    } finally {
      reader.stop();
    }
  };

  // --- The listener: PROXY header (when configured), then HTTP or SOCKS by the first byte ---

  /**
   * Reads the load balancer's PROXY header at the start of `data`; the customer's address is the one it names. The
   * bytes after it, or undefined while it is not whole; throws when the connection does not start with one.
   */
  const takeProxyHeader = (connection: Connection, data: Buffer): Buffer | undefined => {
    const header = parseProxyHeader(data);
    if (!header) return undefined;
    // The balancer's header is not the customer's traffic.
    connection.meteredRead = header.length;
    const proxied = header.clientIp === undefined ? undefined : socketIp(header.clientIp);
    if (proxied) {
      connection.clientIp = proxied;
      connection.source = sourceKey(proxied);
    }
    return data.subarray(header.length);
  };

  const onSocket = (socket: GatewaySocket) => {
    socket.on('error', () => {});
    const clientIp = socketIp(socket.remoteAddress) ?? 'unknown';
    const connection: Connection = {
      socket,
      clientIp,
      source: sourceKey(clientIp),
      account: undefined,
      via: undefined,
      passwordVersion: 0,
      targeting: undefined,
      authorization: undefined,
      meteredRead: 0,
      meteredWritten: 0,
      countedAs: undefined,
    };
    // Behind a load balancer the customer's address is known only from the PROXY header: counted then.
    if (!config.proxyProtocol && !admit(connection)) return;
    socket[connectionKey] = connection;
    connections.add(connection);
    socket.once('close', () => {
      meterConnection(connection);
      connections.delete(connection);
      release(connection);
    });
    const timer = setTimeout(() => socket.destroy(), HANDSHAKE_TIMEOUT_MS);
    // A client that ends before its first byte asks nothing: not kept half-open until the timer.
    const ended = () => socket.destroy();
    socket.once('end', ended);
    // At most a PROXY header (parseProxyHeader refuses a longer one) and one chunk: the first is handed on.
    let buffered: Buffer = NOTHING;
    let headerRead = !config.proxyProtocol;
    const onData = (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      if (!headerRead) {
        let after: Buffer | undefined;
        try {
          after = takeProxyHeader(connection, buffered);
        } catch {
          socket.destroy();
          return;
        }
        if (!after) return;
        headerRead = true;
        if (!admit(connection)) return;
        buffered = after;
      }
      if (buffered.length === 0) return;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', ended);
      socket.pause();
      if (buffered[0] === SOCKS_VERSION) {
        void serveSocks(connection, buffered);
        return;
      }
      socket.unshift(buffered);
      httpServer.emit('connection', socket);
      socket.resume();
    };
    socket.on('data', onData);
    socket.once('close', () => clearTimeout(timer));
  };

  const server = net.createServer(
    { allowHalfOpen: true, noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 },
    onSocket,
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await authFailures.close();
    throw error;
  }
  const port = (server.address() as net.AddressInfo).port;

  const tick = setInterval(() => {
    for (const connection of connections) {
      meterConnection(connection);
      if (revoked(connection)) connection.socket.destroy();
    }
    refreshOpenAccounts();
  }, METER_TICK_MS);
  tick.unref();
  const flushTimer = setInterval(() => {
    meter
      .flush()
      .catch((error: unknown) => log.error({ err: error }, 'gateway metering write failed; kept for the next'));
  }, config.flushMs);
  flushTimer.unref();

  log.info(
    {
      port,
      upstream: config.upstream ? new URL(config.upstream.url).host : 'direct',
      proxyProtocol: config.proxyProtocol,
    },
    `residential gateway listening on port ${port} (HTTP, CONNECT and SOCKS 5)`,
  );

  let closing: Promise<void> | undefined;
  return {
    port,
    connections: () => connections.size,
    carried: () => ({ ...meter.carried }),
    refused: () => ({ perIpLimit: refusedPerIpLimit }),
    listening: () => closing === undefined && server.listening,
    flush: async () => {
      for (const connection of connections) meterConnection(connection);
      await meter.flush();
    },
    close: () => {
      closing ??= (async () => {
        clearInterval(tick);
        clearInterval(flushTimer);
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const connection of connections) {
          meterConnection(connection);
          connection.socket.destroy();
        }
        await closed;
        agents.destroy();
        // A read still under way would otherwise outlive the database it reads.
        await refreshing;
        await authFailures.close();
        for (const connection of connections) meterConnection(connection);
        await meter.flush({ final: true });
      })();
      return closing;
    },
  };
}

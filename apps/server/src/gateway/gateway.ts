import type { Socket } from 'node:net';
import { parseTargetedUsername } from '@storefront/contract';
import type { FastifyBaseLogger } from 'fastify';
import { type PrepareRequestFunction, RequestError, Server } from 'proxy-chain';
import type { GatewayConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { AccountCache, type GatewayAccount, mustStop, passwordMatches, remainingBytes } from './accounts.ts';
import { AuthFailureLimit, sourceKey } from './auth-failures.ts';
import { Egress, EgressRefused } from './egress.ts';
import { Meter } from './meter.ts';
import { upstreamUrlFor } from './upstream.ts';

/** One client connection to the gateway and the account its traffic is billed to. */
interface Connection {
  socket: Socket;
  account: GatewayAccount | undefined;
  /** The account's password version when this connection authenticated: a newer one cuts it. */
  passwordVersion: number;
  /** Bytes of this connection already handed to the meter. */
  metered: number;
}

export interface Gateway {
  port: number;
  /** Open client connections. */
  connections(): number;
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

export const gatewayMessages = {
  credentialsRequired: 'Proxy credentials required: use the residential username and password from your dashboard.',
  wrongCredentials: 'Wrong proxy username or password.',
  blocked: 'This account is blocked. Please contact support.',
  usedUp: (purchaseUrl: string) => `Your residential data is used up. Buy more at ${purchaseUrl}`,
  tooManyFailures: (minutes: number) =>
    `Too many wrong proxy usernames or passwords from your address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
};

/** The refusal of a source past its failed authentications, with the seconds it has left in Retry-After. */
function tooManyFailures(refusedMs: number): RequestError {
  const seconds = Math.max(1, Math.ceil(refusedMs / 1000));
  return new RequestError(gatewayMessages.tooManyFailures(Math.ceil(seconds / 60)), 429, {
    'Retry-After': String(seconds),
  });
}

/**
 * The residential gateway (ARCHITECTURE section 6): a forward proxy (HTTP, and HTTPS through CONNECT) on proxy-chain that
 * authenticates residential accounts, reads the list generator's targeting from the username, meters both directions of
 * every connection into the account, refuses an account whose data is used up and cuts its connections as they cross the
 * limit, cuts every open connection of an account that is banned, blocked, gone, given a new password or used up
 * elsewhere within `cacheMs`, refuses a source address past its failed authentications (429 with Retry-After, before
 * any account is read), and goes out directly or through the configured upstream provider.
 */
export async function startGateway({
  db,
  config,
  log,
}: {
  db: Db;
  config: GatewayConfig;
  log: FastifyBaseLogger;
}): Promise<Gateway> {
  const meter = new Meter(db);
  const accounts = new AccountCache({ db, cacheMs: config.cacheMs, unwritten: (userId) => meter.unwritten(userId) });
  const connections = new Map<number, Connection>();
  const egress = new Egress({ allowPrivate: config.allowPrivateTargets });
  const authFailures = await AuthFailureLimit.create(config.authFailures, config.cacheMs, log);

  const cut = (account: GatewayAccount) => {
    for (const connection of connections.values()) {
      if (connection.account === account) connection.socket.destroy();
    }
  };

  /** Hands the connection's new bytes (both directions, as the client sees them) to the meter; cuts at the limit. */
  const meterConnection = (connection: Connection) => {
    const { account, socket } = connection;
    if (!account) return;
    const total = socket.bytesRead + socket.bytesWritten;
    const added = total - connection.metered;
    if (added <= 0) return;
    connection.metered = total;
    meter.add(account, added);
    if (remainingBytes(account) <= 0) cut(account);
  };

  /** Whether the connection's account may no longer carry it (as last read). */
  const revoked = ({ account, passwordVersion }: Connection) =>
    account !== undefined && (mustStop(account) || passwordVersion !== account.passwordVersion);

  let refreshing: Promise<void> | undefined;
  let refreshErrorLoggedAt = Number.NEGATIVE_INFINITY;
  /** Reads the accounts of open connections again when due, and cuts the connections they no longer allow. */
  const refreshOpenAccounts = () => {
    if (refreshing) return;
    const open = new Set<GatewayAccount>();
    for (const connection of connections.values()) if (connection.account) open.add(connection.account);
    if (open.size === 0) return;
    refreshing = accounts
      .refresh(open, METER_TICK_MS)
      .then(() => {
        for (const connection of connections.values()) if (revoked(connection)) connection.socket.destroy();
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

  const prepareRequest: PrepareRequestFunction = async ({ connectionId, username, password, hostname, request }) => {
    const source = sourceKey(request.socket.remoteAddress);
    const refusedMs = await authFailures.refusedFor(source);
    if (refusedMs > 0) throw tooManyFailures(refusedMs);
    // No credentials is how many clients begin (they send them after the 407): not counted as a failure.
    if (!username) return { requestAuthentication: true, failMsg: gatewayMessages.credentialsRequired };
    const targeting = parseTargetedUsername(username);
    const account = await accounts.get(targeting?.username ?? username);
    if (!account || !passwordMatches(account, password)) {
      await authFailures.fail(source);
      return { requestAuthentication: true, failMsg: gatewayMessages.wrongCredentials };
    }
    if (account.blocked) throw new RequestError(gatewayMessages.blocked, 403);
    if (remainingBytes(account) <= 0) throw new RequestError(gatewayMessages.usedUp(config.purchaseUrl), 402);
    let dnsLookup: Awaited<ReturnType<Egress['check']>>;
    try {
      dnsLookup = await egress.check(hostname, config.upstream === undefined);
    } catch (error) {
      if (error instanceof EgressRefused)
        throw new RequestError(error.message, error.cause === 'ENOTFOUND' ? 502 : 403);
      throw error;
    }
    const connection = connections.get(connectionId);
    if (connection) {
      // A keep-alive connection may switch accounts between requests: what came before is the previous account's.
      meterConnection(connection);
      connection.account = account;
      connection.passwordVersion = account.passwordVersion;
    }
    return {
      upstreamProxyUrl: config.upstream ? upstreamUrlFor(config.upstream, targeting) : null,
      ...(dnsLookup ? { dnsLookup } : {}),
    };
  };

  const server = new Server({
    port: config.port,
    host: config.host,
    authRealm: 'Residential proxies',
    prepareRequestFunction: prepareRequest,
  });

  // proxy-chain registers each socket (proxyChainId) in its own 'connection' listener, which runs before this one.
  server.server.on('connection', (socket: Socket & { proxyChainId?: number }) => {
    const id = socket.proxyChainId;
    if (id === undefined) return;
    const connection: Connection = { socket, account: undefined, passwordVersion: 0, metered: 0 };
    connections.set(id, connection);
    // Every write towards the client is metered as it is made, so a download that crosses the limit is cut within one
    // chunk; uploads are metered by the tick below.
    const write = socket.write;
    socket.write = ((...args: Parameters<Socket['write']>) => {
      const written = write.apply(socket, args);
      meterConnection(connection);
      return written;
    }) as Socket['write'];
    socket.once('close', () => {
      meterConnection(connection);
      connections.delete(id);
    });
  });
  server.on('requestFailed', ({ error }: { error: Error }) => {
    // proxy-chain's messages may quote the upstream URL: its credentials never reach the log.
    log.warn({ err: { message: error.message.replace(/\/\/[^@\s/]+@/g, '//[redacted]@') } }, 'gateway request failed');
  });

  try {
    await server.listen();
  } catch (error) {
    await authFailures.close();
    throw error;
  }

  const tick = setInterval(() => {
    for (const connection of connections.values()) {
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
    { port: server.port, upstream: config.upstream ? new URL(config.upstream.url).host : 'direct' },
    `residential gateway listening on port ${server.port}`,
  );

  let closing: Promise<void> | undefined;
  return {
    port: server.port,
    connections: () => connections.size,
    flush: async () => {
      for (const connection of connections.values()) meterConnection(connection);
      await meter.flush();
    },
    close: () => {
      closing ??= (async () => {
        clearInterval(tick);
        clearInterval(flushTimer);
        await server.close(true);
        // A read still under way would otherwise outlive the database it reads.
        await refreshing;
        await authFailures.close();
        for (const connection of connections.values()) meterConnection(connection);
        await meter.flush({ final: true });
      })();
      return closing;
    },
  };
}

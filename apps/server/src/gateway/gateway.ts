import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { socketIp } from '../lib/ip-address.ts';
import { AccountCache } from './accounts.ts';
import { AuthFailureLimit, sourceKey } from './auth-failures.ts';
import type { GatewayConfig } from './config.ts';
import { serveConnect } from './connect.ts';
import { type Connection, connectionKey, type GatewaySocket, newConnection, OpenConnections } from './connections.ts';
import type { GatewayContext } from './context.ts';
import { Egress } from './egress.ts';
import { serveRequest } from './http-proxy.ts';
import { Meter } from './meter.ts';
import { parseProxyHeader } from './proxy-protocol.ts';
import { internalFailure, refuseRequest } from './refusals.ts';
import { SOCKS_VERSION } from './socks5.ts';
import { serveSocks } from './socks5-server.ts';
import { type SqlClient, sqlClientOf } from './sql.ts';
import { createAgents } from './upstream.ts';
import { VerifiedCredentials } from './verified-credentials.ts';

export { gatewayMessages } from './refusals.ts';

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
/**
 * A lease outlives several flushes that renew it, so that a slow write does not let it lapse; a gateway that dies keeps
 * its leases' data from the other gateways this long.
 */
const LEASE_FLUSHES = 5;
const LEASE_MIN_MS = 30_000;
/** A failing reservation (database down) is logged at most this often. */
const RESERVE_ERROR_LOG_MS = 30_000;
/** A connection that says nothing (or no whole PROXY header, or no whole SOCKS handshake) for this long is closed. */
const HANDSHAKE_TIMEOUT_MS = 30_000;
/** What a connection has sent before its first chunk. */
const NOTHING = Buffer.alloc(0);

/** Node's HTTP server, fed the gateway's HTTP connections: absolute-form requests and CONNECT. */
function createHttpServer(context: GatewayContext): http.Server {
  const server = http.createServer(
    {
      // A proxied upload may take as long as it takes; only the request head has a time limit.
      requestTimeout: 0,
      headersTimeout: HANDSHAKE_TIMEOUT_MS,
      keepAliveTimeout: 60_000,
      requireHostHeader: false,
    },
    (request, response) => {
      serveRequest(context, request, response).catch((error: unknown) => {
        context.log.warn({ err: error }, 'gateway request failed');
        refuseRequest(request, response, internalFailure);
      });
    },
  );
  server.on('connect', (request: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    serveConnect(context, request, socket, head).catch((error: unknown) => {
      context.log.warn({ err: error }, 'gateway tunnel failed');
      socket.destroy();
    });
  });
  return server;
}

/**
 * Reads the load balancer's PROXY header at the start of `data`; the customer's address is the one it names. The
 * bytes after it, or undefined while it is not whole; throws when the connection does not start with one.
 */
function takeProxyHeader(connection: Connection, data: Buffer): Buffer | undefined {
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
}

/**
 * A new connection: counted under its source, then (after the PROXY header, when configured) handed by its first byte
 * to SOCKS 5 (0x05; no HTTP method starts with it) or to the HTTP server.
 */
function acceptConnection(context: GatewayContext, httpServer: http.Server, socket: GatewaySocket): void {
  const { config, open } = context;
  socket.on('error', () => {});
  const connection = newConnection(socket);
  // Behind a load balancer the customer's address is known only from the PROXY header: counted then.
  if (!config.proxyProtocol && !open.admit(connection)) return;
  socket[connectionKey] = connection;
  open.add(connection);
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
      if (!open.admit(connection)) return;
      buffered = after;
    }
    if (buffered.length === 0) return;
    clearTimeout(timer);
    socket.off('data', onData);
    socket.off('end', ended);
    socket.pause();
    if (buffered[0] === SOCKS_VERSION) {
      void serveSocks(context, connection, buffered, HANDSHAKE_TIMEOUT_MS);
      return;
    }
    socket.unshift(buffered);
    httpServer.emit('connection', socket);
    socket.resume();
  };
  socket.on('data', onData);
  socket.once('close', () => clearTimeout(timer));
}

async function listen(server: net.Server, config: GatewayConfig): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as net.AddressInfo).port;
}

/**
 * The residential gateway (ARCHITECTURE section 6; docs/decisions/2026-11-25-gateway-own-server.md): HTTP, CONNECT and
 * SOCKS 5 on one port, told apart by a connection's first byte, so customers need one address whatever their tool.
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
  let reserveErrorLoggedAt = Number.NEGATIVE_INFINITY;
  const meter = new Meter({
    sql,
    gatewayId: randomUUID(),
    sliceKb: config.sliceKb,
    leaseMs: Math.max(LEASE_MIN_MS, LEASE_FLUSHES * config.flushMs),
    shortForMs: config.cacheMs,
    onError: (error) => {
      if (Date.now() - reserveErrorLoggedAt < RESERVE_ERROR_LOG_MS) return;
      reserveErrorLoggedAt = Date.now();
      log.error(
        { err: error },
        'gateway could not reserve residential data; carrying on as far as accounts were last read',
      );
    },
  });
  const accounts = new AccountCache({
    sql,
    cacheMs: config.cacheMs,
    unwritten: (meterKey) => meter.unwritten(meterKey),
  });
  const open = new OpenConnections({ maxPerSource: config.maxConnectionsPerIp, meter, accounts, log });
  const context: GatewayContext = {
    config,
    log,
    accounts,
    verified: new VerifiedCredentials(config.cacheMs),
    authFailures: await AuthFailureLimit.create(config.authFailures, config.cacheMs, log),
    egress: new Egress({ allowPrivate: config.allowPrivateTargets }),
    agents: createAgents(config.upstream),
    open,
  };
  const httpServer = createHttpServer(context);
  const server = net.createServer(
    { allowHalfOpen: true, noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 },
    (socket) => acceptConnection(context, httpServer, socket),
  );
  let port: number;
  try {
    port = await listen(server, config);
  } catch (error) {
    await context.authFailures.close();
    throw error;
  }
  const tick = setInterval(() => open.tick(METER_TICK_MS), METER_TICK_MS);
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
  /** Stops accepting and the timers, cuts every connection, and meters and writes what they carried. */
  const close = async () => {
    clearInterval(tick);
    clearInterval(flushTimer);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const connection of open) {
      open.meter(connection);
      connection.socket.destroy();
    }
    await closed;
    context.agents.destroy();
    // A read still under way would otherwise outlive the database it reads.
    await open.refreshing;
    await context.authFailures.close();
    for (const connection of open) open.meter(connection);
    await meter.flush({ final: true });
  };
  return {
    port,
    connections: () => open.size,
    carried: () => ({ ...meter.carried }),
    refused: () => ({ perIpLimit: open.refusedPerIpLimit }),
    listening: () => closing === undefined && server.listening,
    flush: async () => {
      for (const connection of open) open.meter(connection);
      await meter.flush();
    },
    close: () => {
      closing ??= close();
      return closing;
    },
  };
}

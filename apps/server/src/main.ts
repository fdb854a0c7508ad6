// The shop's server: `npm start` (through scripts/start.ts), `npm run serve`, or `node .` in a release. It stops on
// SIGTERM or SIGINT without cutting a request: see lifecycle/shutdown.ts and docs/decisions/2026-11-25-stopping.md.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { type Config, loadConfigOrExit } from './config.ts';
import { postgresWhere } from './db/connection-failure.ts';
import { startGateway } from './gateway/gateway.ts';
import { logDestination } from './lib/logging.ts';
import { registerGatewayMetrics } from './lib/metrics-gateway.ts';
import { serveMetrics } from './lib/metrics-listener.ts';
import { down, ok } from './lib/readiness.ts';
import { startTracing, stopTracing, tracingLogOptions } from './lib/tracing.ts';
import { DataDirInUse } from './lifecycle/data-dir-lock.ts';
import { buildInfo } from './lifecycle/release.ts';
import { createShutdown } from './lifecycle/shutdown.ts';
import { prepareApp } from './start.ts';

async function main() {
  const config = loadConfigOrExit('server');
  // With OTEL_EXPORTER_OTLP_ENDPOINT, before anything is opened: the HTTP server, Fastify and the database client are
  // instrumented as they are made, and log lines carry the trace's ids. Without it, its SDK is never loaded.
  await startTracing('storefront');
  const stream = await logDestination(config.env);
  const log = pino({ level: config.logLevel, ...tracingLogOptions() }, stream);
  const shutdown = createShutdown({ log, timeoutSeconds: config.shutdown.timeoutSeconds });
  // Closed last, so that the spans of the stop itself are exported.
  shutdown.add({ name: 'traces', close: stopTracing });
  const started = await prepareApp(config, {
    log,
    logger: { ...tracingLogOptions(), ...(stream && { stream }) },
    lifecycle: shutdown.lifecycle,
    inUseHint: 'a second server needs its own DATA_DIR, or PostgreSQL for both',
  });
  const { app } = started;
  shutdown.add({ name: 'database', close: () => started.database.close() });
  shutdown.setLog(app.log);
  shutdown.add({
    name: 'HTTP server',
    // Stops accepting, lets the requests in flight finish and ends keep-alive connections; then the periodic job stops
    // between two units of work and the app's own connections (Redis, LISTEN) close.
    close: () => closeHttp(app),
    pending: () => openConnections(app),
  });
  shutdown.setDrain(() => drain(app, config));

  await app.ready();
  await listen(app.server, config);
  await serveMetrics(config.metrics, app.metrics.registry, app.log, shutdown);
  if (config.gateway.enabled) {
    const gateway = await startGateway({
      db: started.database.db,
      config: config.gateway,
      log: app.log.child({ part: 'gateway' }),
    });
    app.readiness.gateway = () => (shutdown.lifecycle.draining ? down('stopping') : ok);
    registerGatewayMetrics(app.metrics.registry, gateway);
    shutdown.add({
      name: 'residential gateway',
      // Stops accepting, closes the tunnels and writes their last metered bytes, before the database closes.
      close: () => gateway.close(),
      pending: () => `${gateway.connections()} connections`,
    });
  }
  const { version, commit } = buildInfo();
  const port = (app.server.address() as AddressInfo).port;
  const url = config.appUrl;
  const where =
    config.database.kind === 'postgres'
      ? `PostgreSQL at ${postgresWhere(config.database.connectionString)}`
      : `embedded PGlite, ${dataDirOf(config) ? `data in ${dataDirOf(config)}` : 'in memory: nothing is kept'}`;
  app.log.info(
    { version, commit, url, port, database: started.database.kind, dataDir: dataDirOf(config) },
    `storefront ${version} (${commit}) ready at ${url} (${where})`,
  );
}

/**
 * Listens on HOST:PORT without Fastify's "Server listening at" lines (one per interface, none of them APP_URL): the
 * ready line is the one address a newcomer sees. Fastify's close still closes this server.
 */
function listen(server: Server, { host, port }: Config): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new Error(`port ${port} on ${host} is in use: set PORT to a free one`));
      else if (error.code === 'EADDRNOTAVAIL') reject(new Error(`HOST ${host} is not an address of this machine`));
      else reject(error);
    };
    server.once('error', failed);
    server.listen({ host, port }, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/** The folder the operator chose (DATA_DIR, or the folder of DATABASE_URL=pglite:<dir>). */
function dataDirOf(config: Config): string | undefined {
  const { database } = config;
  if (database.kind !== 'pglite' || !database.dataDir) return undefined;
  return database.chosenBy === 'DATA_DIR' ? path.dirname(database.dataDir) : database.dataDir;
}

/**
 * The first part of a stop with SHUTDOWN_DRAIN_MS: readiness already answers 503 (the lifecycle says draining), every
 * answer now ends its connection so keep-alive clients reconnect elsewhere, and new connections are still served until
 * the load balancer has taken the instance out.
 */
async function drain(app: FastifyInstance, config: Config): Promise<void> {
  if (config.shutdown.drainMs <= 0) return;
  endConnectionsAfterAnswers(app);
  app.server.closeIdleConnections();
  app.log.info({ drainMs: config.shutdown.drainMs }, 'draining: readiness answers 503 while requests are still served');
  await sleep(config.shutdown.drainMs);
}

let endingConnections = false;

/** From now on every answer ends its connection (keep-alive clients reconnect, to another instance). */
function endConnectionsAfterAnswers(app: FastifyInstance): void {
  if (endingConnections) return;
  endingConnections = true;
  app.server.prependListener('request', (_request, response) => response.setHeader('connection', 'close'));
}

/**
 * Fastify's close stops accepting and ends the connections idle at that moment; a connection whose request was in
 * flight becomes idle only once answered, and would otherwise be kept open until its keep-alive timeout.
 */
async function closeHttp(app: FastifyInstance): Promise<void> {
  endConnectionsAfterAnswers(app);
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}

function openConnections(app: FastifyInstance): Promise<string> {
  return new Promise((resolve) => {
    app.server.getConnections((error, count) => resolve(error ? 'connections unknown' : `${count} connections open`));
  });
}

main().catch((error: unknown) => {
  if (error instanceof DataDirInUse) console.error(error.message);
  else console.error('The server could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

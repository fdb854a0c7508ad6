// The residential gateway alone (`npm run gateway`, `node . gateway` in a release), against the same PostgreSQL as the
// servers, so it can run on its own machines and be scaled apart from the web servers. Metered bytes are written every
// GATEWAY_FLUSH_MS and once more on SIGTERM or SIGINT, so a stop loses nothing. On the embedded database it runs only
// while no server holds the folder (a server runs the gateway itself, GATEWAY_ENABLED). Its metrics, liveness and
// readiness are on its own METRICS_HOST:METRICS_PORT listener (GET /metrics, /health/live, /health/ready).
import pino from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { registerGatewayMetrics, registerPoolGauge } from '../lib/metrics-gateway.ts';
import { startMetricsListener } from '../lib/metrics-listener.ts';
import { startTracing, stopTracing, tracingLogOptions } from '../lib/tracing.ts';
import { DataDirInUse } from '../lifecycle/data-dir-lock.ts';
import { buildInfo } from '../lifecycle/release.ts';
import { createShutdown } from '../lifecycle/shutdown.ts';
import { loadGatewayConfigOrExit } from './config.ts';
import { openGatewayDatabase } from './database.ts';
import { type Gateway, startGateway } from './gateway.ts';
import { gatewayHealth } from './health.ts';

async function main() {
  // Its own part of the shop's settings schema, without the rest of the shop's configuration (./config.ts).
  const config = loadGatewayConfigOrExit();
  // With OTEL_EXPORTER_OTLP_ENDPOINT: traces as `storefront-gateway`, before anything is opened (see main.ts).
  await startTracing('storefront-gateway');
  const log = pino({ level: config.logLevel, ...tracingLogOptions() });
  const shutdown = createShutdown({ log, timeoutSeconds: config.shutdown.timeoutSeconds });
  shutdown.add({ name: 'traces', close: stopTracing });
  // Only what the gateway uses is loaded: on PostgreSQL a bare pool, no query builder and none of the shop's modules.
  const database = await openGatewayDatabase(config, log);
  shutdown.add({ name: 'database', close: () => database.close() });
  // Metrics and health before the gateway, so that they close after it on a stop: readiness answers 503 until the
  // gateway listens, and again (draining) while it closes its tunnels and writes their last bytes.
  let gateway: Gateway | undefined;
  let metricsAt = 'no metrics listener';
  if (config.metrics) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    registerGatewayMetrics(registry, {
      connections: () => gateway?.connections() ?? 0,
      carried: () => gateway?.carried() ?? { upload: 0, download: 0 },
      refused: () => gateway?.refused() ?? { perIpLimit: 0 },
    });
    if (database.poolConnections) registerPoolGauge(registry, database.poolConnections);
    const health = await gatewayHealth({
      sql: database.sql,
      gateway: { listening: () => gateway?.listening() ?? false },
      lifecycle: shutdown.lifecycle,
    });
    const listener = await startMetricsListener({ ...config.metrics, registry, log, health });
    if (listener) {
      shutdown.add({ name: 'metrics listener', close: () => listener.close() });
      metricsAt = `metrics and health on ${config.metrics.host}:${listener.port}`;
    }
  }
  const started = await startGateway({ db: database.sql, config: config.gateway, log });
  gateway = started;
  shutdown.add({
    name: 'residential gateway',
    // Stops accepting, closes the tunnels and writes their last metered bytes, before the database closes.
    close: () => started.close(),
    pending: () => `${started.connections()} connections`,
  });
  // One line saying what runs and where, as the server's: the ports are the ones bound (0 picks a free one).
  const { version, commit } = buildInfo();
  const proxyAt = `${config.gateway.host}:${started.port}`;
  log.info(
    { version, commit, host: config.gateway.host, port: started.port, database: config.database.kind },
    `storefront gateway ${version} (${commit}) ready on ${proxyAt} (${metricsAt})`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof DataDirInUse) console.error(error.message);
  else console.error('The gateway could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

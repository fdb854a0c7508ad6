import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * Liveness and readiness on the metrics listener, for a process with no HTTP server of its own (the gateway alone):
 * GET /health/live answers 200 while the process runs; GET /health/ready answers `ready()`'s body, 200 or 503.
 */
export interface ListenerHealth {
  ready(): { ready: boolean; body: object };
}

/**
 * The Prometheus scrape endpoint, GET /metrics, on its own address (METRICS_HOST:METRICS_PORT, loopback by default) so
 * that it is never reachable through the shop's public port. A port already taken is said in a sentence and the
 * process goes on without metrics: a scrape endpoint is not worth stopping the shop for.
 */
export async function startMetricsListener({
  host,
  port,
  registry,
  log,
  health,
}: {
  host: string;
  port: number;
  registry: Registry;
  log: { info(object: object, message: string): void; error(object: object, message: string): void };
  health?: ListenerHealth;
}): Promise<MetricsListener | undefined> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (health && request.method === 'GET' && (path === '/health/live' || path === '/health/ready')) {
      const { ready, body } = path === '/health/live' ? { ready: true, body: { status: 'ok' } } : health.ready();
      response
        .writeHead(ready ? 200 : 503, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
        })
        .end(JSON.stringify(body));
      return;
    }
    if (request.method !== 'GET' || path !== '/metrics') {
      const where = health
        ? 'the metrics are at GET /metrics, liveness at GET /health/live, readiness at GET /health/ready'
        : 'the metrics are at GET /metrics';
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`Not found: ${where}\n`);
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => {
        log.error({ err: error }, 'metrics could not be read');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be read.\n');
      },
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    log.error(
      { err: error },
      `The metrics listener could not start on ${host}:${port} (${code ?? 'error'}): set METRICS_PORT to a free ` +
        'port, or 0 to turn it off. Running without metrics.',
    );
    return undefined;
  }
  const address = server.address() as AddressInfo;
  log.info({ host, port: address.port }, `metrics at http://${host}:${address.port}/metrics`);
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Starts the listener when METRICS_PORT is not 0 and has the stop close it (the entry points' one call). */
export async function serveMetrics(
  metrics: { host: string; port: number } | undefined,
  registry: Registry,
  log: { info(object: object, message: string): void; error(object: object, message: string): void },
  shutdown: { add(closable: { name: string; close(): Promise<void> }): void },
  health?: ListenerHealth,
): Promise<void> {
  if (!metrics) return;
  const listener = await startMetricsListener({ ...metrics, registry, log, health });
  if (listener) shutdown.add({ name: 'metrics listener', close: () => listener.close() });
}

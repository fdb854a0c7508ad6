import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
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
}: {
  host: string;
  port: number;
  registry: Registry;
  log: { info(object: object, message: string): void; error(object: object, message: string): void };
}): Promise<MetricsListener | undefined> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at GET /metrics\n');
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
): Promise<void> {
  if (!metrics) return;
  const listener = await startMetricsListener({ ...metrics, registry, log });
  if (listener) shutdown.add({ name: 'metrics listener', close: () => listener.close() });
}

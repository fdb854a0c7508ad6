import { Counter, Gauge, type Registry } from 'prom-client';

// The metrics a gateway on its own serves besides Node's, in a module that loads prom-client and nothing of the shop
// (lib/metrics.ts loads the query builder and the shop's modules, which the gateway process leaves out).

/** `storefront_db_pool_connections{state}` of this process's PostgreSQL pool (its own counters: no query). */
export function registerPoolGauge(
  registry: Registry,
  poolConnections: () => { total: number; idle: number; waiting: number },
): void {
  new Gauge({
    name: 'storefront_db_pool_connections',
    help: 'PostgreSQL pool connections: idle, in use, and requests waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { total, idle, waiting } = poolConnections();
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'in_use' }, total - idle);
      this.set({ state: 'waiting' }, waiting);
    },
  });
}

/** What the gateway's metrics read: its own counters, at scrape time (gateway/gateway.ts). */
export interface GatewayCounters {
  connections(): number;
  carried(): { upload: number; download: number };
  refused(): { perIpLimit: number };
}

/**
 * The residential gateway's metrics, in the server that runs it (GATEWAY_ENABLED) or in a gateway of its own. All are
 * read from the counters the gateway keeps anyway when Prometheus scrapes: nothing is added to a proxied byte's path.
 */
export function registerGatewayMetrics(registry: Registry, gateway: GatewayCounters): void {
  new Counter({
    name: 'storefront_gateway_bytes_total',
    help: 'Bytes the residential gateway carried for customers (the metered bytes), by direction: upload (from the customer) or download (to the customer)',
    labelNames: ['direction'],
    registers: [registry],
    collect() {
      const { upload, download } = gateway.carried();
      // The gateway's own totals since it started, so the counter is set to them rather than added to.
      this.reset();
      this.inc({ direction: 'upload' }, upload);
      this.inc({ direction: 'download' }, download);
    },
  });
  new Counter({
    name: 'storefront_gateway_refused_connections_total',
    help: 'Connections the residential gateway closed as they came, by reason: per_ip_limit (their source address held GATEWAY_MAX_CONNECTIONS_PER_IP open connections)',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ reason: 'per_ip_limit' }, gateway.refused().perIpLimit);
    },
  });
  new Gauge({
    name: 'storefront_gateway_connections',
    help: 'Open customer connections to the residential gateway (HTTP, CONNECT and SOCKS 5)',
    registers: [registry],
    collect() {
      this.set(gateway.connections());
    },
  });
}

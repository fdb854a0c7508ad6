import type { ListenerHealth } from '../lib/metrics-listener.ts';
import { type CheckResult, cachedProbe, down, ok } from '../lib/readiness.ts';
import { buildInfo } from '../lifecycle/release.ts';
import type { Lifecycle } from '../lifecycle/shutdown.ts';
import type { SqlClient } from './sql.ts';

/** How often a gateway on its own asks its database whether it answers (in the background, never on a call). */
export const DATABASE_PROBE_MS = 5_000;
/** A database that has not answered the probe by then is down. */
const DATABASE_PROBE_TIMEOUT_MS = 5_000;

export interface GatewayReadiness {
  status: 'ready' | 'draining' | 'unavailable';
  version: string;
  checks: { database: CheckResult; gateway: CheckResult };
}

/**
 * The readiness of a gateway on its own, answered on its metrics listener (GET /health/ready), in the shape of the
 * server's (modules/health/routes.ts): ready when the gateway accepts connections and its database answered the last
 * probe; `draining` once a stop has begun; `unavailable`, with the reason of each check that is down, otherwise.
 */
export async function gatewayHealth({
  sql,
  gateway,
  lifecycle,
}: {
  sql: SqlClient;
  gateway: { listening(): boolean };
  lifecycle: Lifecycle;
}): Promise<ListenerHealth> {
  const database = cachedProbe(
    async () => {
      await sql.query('select 1');
    },
    { intervalMs: DATABASE_PROBE_MS, timeoutMs: DATABASE_PROBE_TIMEOUT_MS },
  );
  // The first answer is a real one, not "not checked yet".
  await database.refresh();
  return {
    ready() {
      const checks = {
        database: database.current(),
        gateway: lifecycle.draining ? down('stopping') : gateway.listening() ? ok : down('not accepting connections'),
      };
      const status: GatewayReadiness['status'] = lifecycle.draining
        ? 'draining'
        : checks.database.status === 'ok' && checks.gateway.status === 'ok'
          ? 'ready'
          : 'unavailable';
      const body: GatewayReadiness = { status, version: buildInfo().version, checks };
      return { ready: status === 'ready', body };
    },
  };
}

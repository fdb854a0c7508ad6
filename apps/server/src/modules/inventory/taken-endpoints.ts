import { proxyAddress } from '@storefront/contract';
import { and, eq, notInArray, or } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { proxyIps } from '../../db/schema.ts';

/**
 * The ip:port pairs among `endpoints` already held by a row of the pools (either pool: ip:port is unique across both),
 * leaving out the rows `exceptIds` (a swap's own rows). Asked a thousand at a time.
 */
export async function takenEndpoints({
  tx,
  endpoints,
  exceptIds = [],
}: {
  tx: Tx;
  endpoints: readonly { ip: string; port: number }[];
  exceptIds?: string[];
}): Promise<string[]> {
  const taken: string[] = [];
  for (let start = 0; start < endpoints.length; start += 1000) {
    const slice = endpoints.slice(start, start + 1000);
    const matches = or(...slice.map((entry) => and(eq(proxyIps.ip, entry.ip), eq(proxyIps.port, entry.port))));
    const rows = await tx
      .select({ ip: proxyIps.ip, port: proxyIps.port })
      .from(proxyIps)
      .where(exceptIds.length > 0 ? and(notInArray(proxyIps.id, exceptIds), matches) : matches);
    taken.push(...rows.map((row) => proxyAddress(row.ip, row.port)));
  }
  return taken;
}

import { parseUploadLines } from '@storefront/contract';
import type { Db } from '../../db/client.ts';
import { proxyIps } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { deliverWaitingOrders } from '../delivery/deliver-order.ts';

/**
 * Adds IPs to a product's pool (ARCHITECTURE section 4): duplicates (same ip:port) are skipped and counted, and the waiting
 * orders are delivered in the same transaction, oldest first.
 */
export async function uploadIps({
  db,
  brand,
  productId,
  lines,
}: {
  db: Db;
  brand: Branding;
  productId: 'pk1_isp_proxies' | 'isp_proxies';
  lines: readonly string[];
}) {
  const parsed = parseUploadLines(lines);
  if ('error' in parsed) throw new AppError('BAD_REQUEST', parsed.error);
  return db.transaction(async (tx) => {
    const rows = parsed.ips.map((entry) => ({
      productId,
      ...entry,
      endpoint: `${entry.ip}:${entry.port}:${entry.username}:${entry.password}`,
      subnet: `${entry.ip.split('.').slice(0, 3).join('.')}.0/24`,
    }));
    let added = 0;
    for (let start = 0; start < rows.length; start += 1000) {
      const inserted = await tx
        .insert(proxyIps)
        .values(rows.slice(start, start + 1000))
        .onConflictDoNothing({ target: [proxyIps.ip, proxyIps.port] })
        .returning({ id: proxyIps.id });
      added += inserted.length;
    }
    const delivered = added > 0 ? await deliverWaitingOrders({ tx, brand, productId }) : 0;
    const skipped = rows.length - added;
    return {
      message: `${added} IP${added === 1 ? '' : 's'} added${skipped > 0 ? `, ${skipped} already in the pool skipped` : ''}${delivered > 0 ? `; ${delivered} waiting order${delivered === 1 ? '' : 's'} delivered` : ''}.`,
      added,
      skipped,
      delivered,
    };
  });
}

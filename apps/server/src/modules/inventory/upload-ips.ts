import { PRODUCTS, parseUploadLines } from '@storefront/contract';
import type { Db } from '../../db/client.ts';
import { proxyIps } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { type Actor, recordAudit } from '../audit/record-audit.ts';
import { deliverWaitingOrders } from '../delivery/deliver-order.ts';

/** The /24 an IPv4 address belongs to, as the pools group them: 203.0.113.7 → 203.0.113.0/24. */
export function subnetOf(ip: string): string {
  return `${ip.split('.').slice(0, 3).join('.')}.0/24`;
}

/**
 * Adds IPs to a product's pool (ARCHITECTURE section 4): duplicates (same ip:port) are skipped and counted, and the waiting
 * orders are delivered in the same transaction, oldest first.
 */
export async function uploadIps({
  db,
  brand,
  actor,
  productId,
  lines,
}: {
  db: Db;
  brand: Branding;
  actor: Actor;
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
      subnet: subnetOf(entry.ip),
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
    await recordAudit({
      tx,
      actor,
      action: 'ips.upload',
      summary: `${added} ${PRODUCTS[productId].label} IPs added, ${skipped} already there${delivered > 0 ? `; ${delivered} waiting order${delivered === 1 ? '' : 's'} delivered` : ''}`,
      details: { productId, lines: rows.length, added, skipped, delivered },
    });
    return {
      message: `${added} IP${added === 1 ? '' : 's'} added${skipped > 0 ? `, ${skipped} already in the pool skipped` : ''}${delivered > 0 ? `; ${delivered} waiting order${delivered === 1 ? '' : 's'} delivered` : ''}.`,
      added,
      skipped,
      delivered,
    };
  });
}

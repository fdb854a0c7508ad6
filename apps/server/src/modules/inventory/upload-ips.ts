import { counted, PRODUCTS, parseUploadLines, proxyAddress, proxyLine } from '@storefront/contract';
import { sql } from 'drizzle-orm';
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
    // One statement for the whole upload (up to a /16): the lines go in as one JSON parameter, are expanded by the
    // database, and the ones already in the pool (same ip:port) are skipped by the unique index.
    const rows = parsed.ips.map((entry) => ({
      ...entry,
      endpoint: proxyLine(proxyAddress(entry.ip, entry.port), entry.username, entry.password),
      subnet: subnetOf(entry.ip),
    }));
    const result = await tx.execute(sql`
      with inserted as (
        insert into ${proxyIps} (product_id, ip, port, username, password, endpoint, subnet)
        select ${productId}, r.ip, r.port, r.username, r.password, r.endpoint, r.subnet
        from json_to_recordset(${JSON.stringify(rows)}::json)
          as r(ip text, port int, username text, password text, endpoint text, subnet text)
        on conflict (ip, port) do nothing
        returning 1
      )
      select count(*)::int as added from inserted`);
    // Both drivers (node-postgres and PGlite) answer with `rows`.
    const added = Number((result as unknown as { rows: { added: number }[] }).rows[0]?.added ?? 0);
    const delivered = added > 0 ? await deliverWaitingOrders({ tx, brand, productId }) : 0;
    const skipped = rows.length - added;
    await recordAudit({
      tx,
      actor,
      action: 'ips.upload',
      summary: `${added} ${PRODUCTS[productId].label} IPs added, ${skipped} already there${delivered > 0 ? `; ${counted(delivered, 'waiting order', 'waiting orders')} delivered` : ''}`,
      details: { productId, lines: rows.length, added, skipped, delivered },
    });
    return {
      message: `${counted(added, 'IP', 'IPs')} added${skipped > 0 ? `, ${skipped} already in the pool skipped` : ''}${delivered > 0 ? `; ${counted(delivered, 'waiting order', 'waiting orders')} delivered` : ''}.`,
      added,
      skipped,
      delivered,
    };
  });
}

import { adminMessages, counted, KB_PER_GB, POOL_MB_PER_GB, type ResidentialStock } from '@storefront/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { residentialPool } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { type Actor, recordAudit } from '../audit/record-audit.ts';
import { deliverWaitingOrders } from '../delivery/deliver-order.ts';

/** Automatic top-ups of this calendar month (UTC), for the console's sales figures. */
async function topUpsThisMonth(db: Db | Tx, currency: string): Promise<ResidentialStock['topUpsThisMonth']> {
  const [row] = (
    (await db.execute(sql`
      select count(*) filter (where status = 'paid') as paid,
        coalesce(sum(amount_cents) filter (where status = 'paid'), 0) as paid_cents,
        count(*) filter (where status in ('failed', 'needs_action')) as failed
      from top_ups where started_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'`)) as {
      rows: { paid: string | number; paid_cents: string | number; failed: string | number }[];
    }
  ).rows;
  return {
    paid: Number(row?.paid ?? 0),
    paidCents: Number(row?.paid_cents ?? 0),
    failed: Number(row?.failed ?? 0),
    currency,
  };
}

function stockOf(
  pool: { bandwidthLimitMb: number; bandwidthUsedMb: number; carriedKb: number } | undefined,
  topUps: ResidentialStock['topUpsThisMonth'],
): ResidentialStock {
  const limit = pool?.bandwidthLimitMb ?? 0;
  const used = pool?.bandwidthUsedMb ?? 0;
  return {
    bandwidthUsed: used,
    bandwidthLimit: limit,
    bandwidthAvailable: Math.max(0, limit - used),
    usagePercentage: limit === 0 ? 0 : Math.round((used / limit) * 10_000) / 100,
    bandwidthCarried: Math.round((pool?.carriedKb ?? 0) / KB_PER_MB),
    topUpsThisMonth: topUps,
  };
}

/** The pool counts 1000 MB to the GB and the accounts 1024 × 1000 KB: 1024 KB to the MB. */
const KB_PER_MB = KB_PER_GB / POOL_MB_PER_GB;

async function poolRow(db: Db | Tx, lock: boolean) {
  const query = db.select().from(residentialPool).where(eq(residentialPool.id, 1));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** GET /api/admin/stocks/residential: the pool in MB (spec section 3 'Residential stock'). */
export async function getResidentialStock({ db, currency }: { db: Db; currency: string }): Promise<ResidentialStock> {
  const [pool, topUps] = await Promise.all([poolRow(db, false), topUpsThisMonth(db, currency)]);
  return stockOf(pool, topUps);
}

/**
 * PUT /api/admin/stocks/residential: sets the pool's size in MB. Never below what is already sold; a larger pool delivers
 * the waiting residential orders first come, first served, in the same transaction, with its audit entry.
 */
export async function setResidentialLimit({
  db,
  brand,
  actor,
  bandwidthLimit,
  currency,
}: {
  db: Db;
  brand: Branding;
  actor: Actor;
  bandwidthLimit: number;
  currency: string;
}) {
  return db.transaction(async (tx) => {
    const before = await poolRow(tx, true);
    const used = before?.bandwidthUsedMb ?? 0;
    if (bandwidthLimit < used) throw new AppError('BAD_REQUEST', adminMessages.limitBelowSold(used));
    await tx
      .insert(residentialPool)
      .values({ id: 1, bandwidthLimitMb: bandwidthLimit, bandwidthUsedMb: used })
      .onConflictDoUpdate({
        target: residentialPool.id,
        set: { bandwidthLimitMb: bandwidthLimit, updatedAt: new Date() },
      });
    const raised = bandwidthLimit > (before?.bandwidthLimitMb ?? 0);
    const delivered = raised ? await deliverWaitingOrders({ tx, brand, productId: 'residential_proxies' }) : 0;
    const previous = before?.bandwidthLimitMb ?? 0;
    await recordAudit({
      tx,
      actor,
      action: 'residential.limit',
      summary: `Residential pool ${previous.toLocaleString('en-US')} MB → ${bandwidthLimit.toLocaleString('en-US')} MB${delivered > 0 ? `; ${counted(delivered, 'waiting order', 'waiting orders')} delivered` : ''}`,
      details: { previousMb: previous, limitMb: bandwidthLimit, delivered },
    });
    const stock = stockOf(await poolRow(tx, false), await topUpsThisMonth(tx, currency));
    return {
      ...stock,
      delivered,
      message: `The residential pool is now ${(bandwidthLimit / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 })} GB.${delivered > 0 ? ` ${counted(delivered, 'waiting order', 'waiting orders')} delivered.` : ''}`,
    };
  });
}

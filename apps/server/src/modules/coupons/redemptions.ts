import { Readable } from 'node:stream';
import {
  type CouponRedemption,
  couponMessages,
  REDEMPTION_EMAILS_PAGE_SIZE,
  REDEMPTIONS_PAGE_SIZE,
  type RedemptionEmails,
} from '@storefront/contract';
import { and, asc, count, desc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { couponRedemptions, coupons, promoCodes } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/**
 * GET /api/admin/coupons/redemptions: codes used in paid checkouts, most used first, a page at a time. The uses and the
 * customers are the counts each redemption keeps on its code (recordRedemption).
 */
export async function listRedemptions({ db, before }: { db: Db; before?: string }) {
  const conditions: SQL[] = [gt(promoCodes.timesRedeemed, 0)];
  if (before) {
    // Checked by the query's schema (REDEMPTIONS_POSITION): the code's uses and its id.
    const [uses, id] = before.split('~');
    conditions.push(sql`(${promoCodes.timesRedeemed}, ${promoCodes.id}) < (${Number(uses)}, ${id}::uuid)`);
  }
  const [rows, [total]] = await Promise.all([
    db
      .select({
        promoCodeId: promoCodes.id,
        couponCode: promoCodes.code,
        totalRedemptions: promoCodes.timesRedeemed,
        uniqueUsers: promoCodes.customers,
        percentOff: coupons.percentOff,
        amountOff: coupons.amountOffCents,
        currency: coupons.currency,
        deletedAt: coupons.deletedAt,
      })
      .from(promoCodes)
      .innerJoin(coupons, eq(coupons.id, promoCodes.couponId))
      .where(and(...conditions))
      .orderBy(desc(promoCodes.timesRedeemed), desc(promoCodes.id))
      .limit(REDEMPTIONS_PAGE_SIZE + 1),
    // Coupons are few (an administrator makes each by hand): counting them is cheap.
    db
      .select({ value: count() })
      .from(coupons)
      .where(isNull(coupons.deletedAt)),
  ]);
  const page = rows.slice(0, REDEMPTIONS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    coupons: page.map(
      (row): CouponRedemption => ({
        ...row,
        uniqueUsers: row.uniqueUsers,
        deletedAt: row.deletedAt?.toISOString() ?? null,
      }),
    ),
    totalCoupons: Number(total?.value ?? 0),
    next: rows.length > REDEMPTIONS_PAGE_SIZE && last ? `${last.totalRedemptions}~${last.promoCodeId}` : null,
  };
}

async function emailsPage(db: Db, promoCodeId: string, after: string | undefined, size: number) {
  return db
    .select({ email: couponRedemptions.email, count: count() })
    .from(couponRedemptions)
    .where(
      and(
        eq(couponRedemptions.promoCodeId, promoCodeId),
        ...(after === undefined ? [] : [gt(couponRedemptions.email, after)]),
      ),
    )
    .groupBy(couponRedemptions.email)
    .orderBy(asc(couponRedemptions.email))
    .limit(size);
}

async function assertPromoCode(db: Db, promoCodeId: string) {
  const [code] = await db.select({ id: promoCodes.id }).from(promoCodes).where(eq(promoCodes.id, promoCodeId));
  if (!code) throw new AppError('NOT_FOUND', couponMessages.promoNotFound);
}

/** GET /api/admin/coupons/redemptions/:promoCodeId/emails: one code's customers alphabetically, after an e-mail. */
export async function listRedemptionEmails({
  db,
  promoCodeId,
  after,
}: {
  db: Db;
  promoCodeId: string;
  after?: string;
}): Promise<RedemptionEmails> {
  await assertPromoCode(db, promoCodeId);
  const rows = await emailsPage(db, promoCodeId, after, REDEMPTION_EMAILS_PAGE_SIZE + 1);
  const page = rows.slice(0, REDEMPTION_EMAILS_PAGE_SIZE);
  return {
    emails: page.map((row) => ({ email: row.email, count: Number(row.count) })),
    next: rows.length > REDEMPTION_EMAILS_PAGE_SIZE ? (page.at(-1)?.email ?? null) : null,
  };
}

/** A CSV field: quoted when it holds a comma, quote or line break; a leading =, +, - or @ is defused for spreadsheets. */
const csvField = (value: string) => {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The .csv download: every customer of the code, read a thousand at a time so any length streams in little memory. */
export async function redemptionEmailsCsv({ db, promoCodeId }: { db: Db; promoCodeId: string }): Promise<Readable> {
  await assertPromoCode(db, promoCodeId);
  async function* lines() {
    yield 'email,redemptions\r\n';
    let after: string | undefined;
    for (;;) {
      const rows = await emailsPage(db, promoCodeId, after, 1000);
      if (rows.length === 0) return;
      yield rows.map((row) => `${csvField(row.email)},${Number(row.count)}\r\n`).join('');
      after = rows.at(-1)?.email;
    }
  }
  return Readable.from(lines());
}

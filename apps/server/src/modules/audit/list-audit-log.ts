import { AUDIT_PAGE_SIZE, type AuditLog, type AuditLogQuery } from '@storefront/contract';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adminAuditLog } from '../../db/schema.ts';

const at = adminAuditLog.createdAt;

/** The conditions of a query's filters and position: days are whole days in the reader's time zone. */
function conditionsOf(query: AuditLogQuery): SQL[] {
  const conditions: SQL[] = [];
  const zone = query.timeZone ?? 'UTC';
  if (query.action) conditions.push(eq(adminAuditLog.action, query.action));
  if (query.actor) conditions.push(eq(adminAuditLog.actorEmail, query.actor));
  if (query.from) conditions.push(sql`${at} >= (${query.from}::date)::timestamp at time zone ${zone}`);
  if (query.to) conditions.push(sql`${at} < (${query.to}::date + 1)::timestamp at time zone ${zone}`);
  if (query.before) {
    const [time, id] = query.before.split('~');
    // Written so the index on the time serves it: at or before the position's time, and past its id at that time.
    conditions.push(sql`${at} <= ${time}::timestamptz`);
    conditions.push(sql`(${at} < ${time}::timestamptz or ${adminAuditLog.id} < ${id}::uuid)`);
  }
  return conditions;
}

/** GET /api/admin/audit-log: newest first, a page at a time by position (never an offset or a count of the table). */
export async function listAuditLog({ db, query }: { db: Db; query: AuditLogQuery }): Promise<AuditLog> {
  const rows = await db
    .select({
      id: adminAuditLog.id,
      actorEmail: adminAuditLog.actorEmail,
      action: adminAuditLog.action,
      summary: adminAuditLog.summary,
      details: adminAuditLog.details,
      createdAt: at,
      // The time as the database holds it: a JavaScript Date would cut the microseconds and skip entries.
      position: sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '~' || ${adminAuditLog.id}`,
    })
    .from(adminAuditLog)
    .where(and(...conditionsOf(query)))
    .orderBy(desc(at), desc(adminAuditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1);
  const page = rows.slice(0, AUDIT_PAGE_SIZE);
  return {
    entries: page.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      actorEmail: row.actorEmail,
      action: row.action,
      summary: row.summary,
      details: row.details,
    })),
    pageSize: AUDIT_PAGE_SIZE,
    next: rows.length > AUDIT_PAGE_SIZE ? (page.at(-1)?.position ?? null) : null,
  };
}

import { AUDIT_PAGE_SIZE, type AuditLog } from '@storefront/contract';
import { count, desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adminAuditLog } from '../../db/schema.ts';

/** GET /api/admin/audit-log: newest first, AUDIT_PAGE_SIZE a page. */
export async function listAuditLog({ db, page }: { db: Db; page: number }): Promise<AuditLog> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(adminAuditLog)
      .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((page - 1) * AUDIT_PAGE_SIZE),
    db.select({ value: count() }).from(adminAuditLog),
  ]);
  return {
    entries: rows.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      actorEmail: row.actorEmail,
      action: row.action,
      summary: row.summary,
      details: row.details,
    })),
    total: Number(total?.value ?? 0),
    page,
    pageSize: AUDIT_PAGE_SIZE,
  };
}

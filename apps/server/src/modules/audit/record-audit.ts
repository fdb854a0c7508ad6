import type { AuditAction } from '@storefront/contract';
import type { Tx } from '../../db/client.ts';
import { adminAuditLog } from '../../db/schema.ts';

/** The administrator making a change. */
export interface Actor {
  id: string;
  email: string;
}

/** Records an administrator's change inside the transaction of the change itself: both are kept, or neither. */
export async function recordAudit({
  tx,
  actor,
  action,
  summary,
  details = {},
}: {
  tx: Tx;
  actor: Actor;
  action: AuditAction;
  /** One sentence for the log view, with the figures. */
  summary: string;
  details?: Record<string, unknown>;
}): Promise<void> {
  await tx.insert(adminAuditLog).values({ actorUserId: actor.id, actorEmail: actor.email, action, summary, details });
}

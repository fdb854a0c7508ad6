import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, lte, notInArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { providerSteps } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { PROVIDER_UNREACHABLE, ProviderError } from './provider.ts';

/**
 * Changes at the payment provider in three steps, never a network call inside a transaction: the intent is committed
 * (`beginStep`), the provider is called with an idempotency key, the outcome is committed (`endStep`); a step left
 * behind is finished or undone by the job (docs/decisions/2026-11-25-provider-calls-outside-transactions.md).
 */
export type StepKind = (typeof providerSteps.$inferSelect)['kind'];
export type Step = typeof providerSteps.$inferSelect;

/**
 * How long the holder of a step has it before the job may take it over: well past the longest wait on the provider
 * (STRIPE_TIMEOUT_S, at most 15 s) and the outcome's transaction.
 */
export const STEP_LEASE_SECONDS = 60;

export const providerStepMessages = {
  busy: 'A change to this is still on its way to the payment provider. Try again in a minute.',
} as const;

/** Records the step in the caller's transaction (the subject locked by the caller); refuses a second one at a time. */
export async function beginStep(
  tx: Tx,
  step: { kind: StepKind; subjectId: string; detail: Record<string, unknown> },
): Promise<Step> {
  const [begun] = await tx
    .insert(providerSteps)
    .values({
      ...step,
      claim: randomUUID(),
      claimedUntil: sql`now() + make_interval(secs => ${STEP_LEASE_SECONDS})`,
    })
    .onConflictDoNothing({ target: providerSteps.subjectId })
    .returning();
  if (!begun) throw new AppError('CONFLICT', providerStepMessages.busy);
  return begun;
}

/**
 * Ends the step in the caller's transaction, which records its outcome. When the job has taken the step over (its
 * lease ran out: a very slow request), the job finishes or undoes it, so the caller must change nothing: this throws.
 */
export async function endStep(tx: Tx, step: Pick<Step, 'id' | 'claim'>): Promise<void> {
  const ended = await tx
    .delete(providerSteps)
    .where(and(eq(providerSteps.id, step.id), eq(providerSteps.claim, step.claim)))
    .returning({ id: providerSteps.id });
  if (ended.length === 0) throw new ProviderError('unreachable', PROVIDER_UNREACHABLE);
}

/**
 * After a failed call: a refusal changed nothing at the provider, so the step simply ends (except a coupon's creation,
 * whose coupon may have been made before its code was refused); anything else is the job's to finish or undo, now.
 */
export async function handOver(db: Db, step: Pick<Step, 'id' | 'claim' | 'kind'>, error: unknown): Promise<void> {
  const mine = and(eq(providerSteps.id, step.id), eq(providerSteps.claim, step.claim));
  if (error instanceof ProviderError && error.kind === 'refused' && step.kind !== 'coupon.create') {
    await db.delete(providerSteps).where(mine);
  } else {
    await db.update(providerSteps).set({ claimedUntil: sql`now()` }).where(mine);
  }
}

/**
 * The job's claim of one step whose lease has run out, in one statement (FOR UPDATE SKIP LOCKED: any number of runners
 * share them), with a new claim and lease of its own; undefined when none is due.
 */
export async function claimDueStep(db: Db, skip: string[]): Promise<Step | undefined> {
  const due = db
    .select({ id: providerSteps.id })
    .from(providerSteps)
    .where(
      and(
        lte(providerSteps.claimedUntil, sql`now()`),
        skip.length > 0 ? notInArray(providerSteps.id, skip) : undefined,
      ),
    )
    .orderBy(asc(providerSteps.claimedUntil))
    .limit(1)
    .for('update', { skipLocked: true });
  const [claimed] = await db
    .update(providerSteps)
    .set({ claim: randomUUID(), claimedUntil: sql`now() + make_interval(secs => ${STEP_LEASE_SECONDS})` })
    .where(inArray(providerSteps.id, due))
    .returning();
  return claimed;
}

/**
 * Whether a coupon being created right now holds this code (compared without regard to case, as codes are). A creation
 * that failed and waits for the job's undo holds nothing: the administrator may try again at once.
 */
export async function codeBeingCreated(tx: Tx | Db, code: string): Promise<boolean> {
  const [found] = await tx
    .select({ id: providerSteps.id })
    .from(providerSteps)
    .where(
      and(
        eq(providerSteps.kind, 'coupon.create'),
        sql`lower(${providerSteps.detail}->>'code') = lower(${code})`,
        sql`${providerSteps.claimedUntil} > now()`,
      ),
    )
    .limit(1);
  return found !== undefined;
}

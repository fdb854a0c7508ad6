import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { type PaymentProvider, ProviderError } from '../../payments/provider.ts';
import { claimDueStep, endStep, type Step } from '../../payments/provider-steps.ts';
import { settleCouponStep } from '../coupons/admin-coupons.ts';
import { settleCancelStep } from '../orders/cancel-order.ts';

/**
 * Finishes or undoes every change at the payment provider that a request left behind (payments/provider-steps.ts):
 * each step is claimed (no transaction held while the provider is asked), settled at the provider, then ended with its
 * outcome here in one transaction. A provider that refuses ends the step as it is (asking again would be refused
 * again); one that cannot be reached leaves it for a later run. Answers how many steps were settled.
 */
export async function settleProviderSteps(
  ctx: { db: Db; provider: PaymentProvider; log: FastifyBaseLogger; signal?: AbortSignal },
  limit = 100,
): Promise<number> {
  const { db, log } = ctx;
  let settled = 0;
  const skip: string[] = [];
  for (let i = 0; i < limit && !ctx.signal?.aborted; i++) {
    const step = await claimDueStep(db, skip);
    if (!step) break;
    let outcome: (tx: Tx) => Promise<void>;
    try {
      outcome = await settleAtProvider(ctx, step);
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'refused') {
        log.warn({ err: error.cause, step: step.kind, subjectId: step.subjectId }, 'provider step refused; ended');
        outcome = async () => {};
      } else {
        log.warn({ err: error, step: step.kind, subjectId: step.subjectId }, 'provider step not settled; retried');
        skip.push(step.id);
        continue;
      }
    }
    await db.transaction(async (tx) => {
      await endStep(tx, step);
      await outcome(tx);
    });
    log.info({ step: step.kind, subjectId: step.subjectId }, 'provider step settled by the job');
    settled += 1;
  }
  return settled;
}

async function settleAtProvider(
  { db, provider }: { db: Db; provider: PaymentProvider },
  step: Step,
): Promise<(tx: Tx) => Promise<void>> {
  if (step.kind === 'order.cancel') return settleCancelStep(provider, step);
  const outcome = await settleCouponStep(db, provider, step);
  if (!outcome) throw new Error(`no way to settle a ${step.kind} step`);
  return outcome;
}

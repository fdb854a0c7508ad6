import Stripe from 'stripe';
import { PROVIDER_UNREACHABLE, ProviderError, providerRefusal } from '../provider.ts';

/** One try of a call gets this part of the wait, so that a try and its one retry fit in it. */
const TRY_SHARE = 0.4;
const MIN_TRY_MS = 1000;
/** The first retry's pause (the SDK's initial back-off, 0.5 s) and a margin. */
const RETRY_PAUSE_MS = 1000;

const tryMsOf = (waitMs: number) => Math.max(MIN_TRY_MS, Math.floor(waitMs * TRY_SHARE));

export function createStripeClient(secretKey: string, apiUrl: string | undefined, waitMs: number): Stripe {
  const url = apiUrl ? new URL(apiUrl) : undefined;
  // Each call passes its own timeout and retries from what is left of the action's wait (`actWithin` below).
  return new Stripe(secretKey, {
    maxNetworkRetries: 1,
    timeout: tryMsOf(waitMs),
    ...(url && {
      host: url.hostname,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      protocol: url.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

/** The options of one request: its timeout and retries from what is left of the action's wait, and `extra`. */
export type Call = (extra?: Stripe.RequestOptions) => Stripe.RequestOptions;

/** What one action at Stripe works with: the SDK, and `call()` for each request it makes. */
export interface StripeAction {
  stripe: Stripe;
  call: Call;
}

/** Runs one action at Stripe; `what` names it for a refusal ("start the checkout"). */
export type Act = <T>(what: string, run: (action: StripeAction) => Promise<T>) => Promise<T>;

/**
 * Runs each action at Stripe (one or more calls) within `waitMs` in all, and turns whatever goes wrong into a
 * ProviderError. Each call takes its timeout and retries from `call()`, which gives what is left of the wait; the wait
 * is also enforced as a whole, so that no person waits longer whatever the SDK does.
 */
export function actWithin(stripe: Stripe, waitMs: number): Act {
  const tryMs = tryMsOf(waitMs);
  return async function act<T>(what: string, run: (action: StripeAction) => Promise<T>): Promise<T> {
    const deadline = Date.now() + waitMs;
    const call: Call = (extra = {}) => {
      const left = deadline - Date.now();
      if (left < 100) throw new ProviderError('unreachable', PROVIDER_UNREACHABLE);
      const timeout = Math.min(tryMs, left);
      return { ...extra, timeout, maxNetworkRetries: left >= 2 * timeout + RETRY_PAUSE_MS ? 1 : 0 };
    };
    try {
      return await beforeDeadline(run({ stripe, call }), waitMs);
    } catch (error) {
      throw providerErrorOf(what, error);
    }
  };
}

/** The work's outcome, or "unreachable" once `waitMs` has passed. */
async function beforeDeadline<T>(work: Promise<T>, waitMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  // The losing side of the race below must not end as an unhandled rejection.
  work.catch(() => {});
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderError('unreachable', PROVIDER_UNREACHABLE)), waitMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether Stripe answered that the object is not there. */
export const isMissing = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError &&
  (error.statusCode === 404 || error.code === 'resource_missing');

/**
 * What a failed call means for the person waiting: Stripe said no to the request (a 4xx about what we asked: its code,
 * such as "amount too large", is safe to show; its message may quote our data and is only logged), or Stripe could not
 * be reached, timed out, failed on its side, limited our rate, or refused our key (the shop's own configuration, which
 * the person cannot change).
 */
function providerErrorOf(what: string, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (
    error instanceof Stripe.errors.StripeError &&
    error.statusCode !== undefined &&
    error.statusCode >= 400 &&
    error.statusCode < 500 &&
    ![401, 403, 429].includes(error.statusCode)
  ) {
    return providerRefusal(what, error.code, error);
  }
  return new ProviderError('unreachable', PROVIDER_UNREACHABLE, { cause: error });
}

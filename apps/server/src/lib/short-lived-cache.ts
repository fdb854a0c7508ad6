/**
 * Keeps the result of `load` for `ttlMs` and shares one pending load between concurrent callers. For public reads
 * that may be a moment stale (the pricing page's stock): each instance reloads on its own, so nothing another
 * instance needs is kept here.
 */
export function shortLivedCache<T>(ttlMs: number, load: () => Promise<T>, now: () => number = Date.now) {
  let value: T | undefined;
  let expiresAt = 0;
  let pending: Promise<T> | undefined;
  return {
    get(): Promise<T> {
      if (value !== undefined && now() < expiresAt) return Promise.resolve(value);
      pending ??= load()
        .then((loaded) => {
          value = loaded;
          expiresAt = now() + ttlMs;
          return loaded;
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    },
    invalidate(): void {
      value = undefined;
      expiresAt = 0;
    },
  };
}

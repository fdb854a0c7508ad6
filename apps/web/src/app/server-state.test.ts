// @vitest-environment happy-dom

import { SERVER_STATE_ELEMENT_ID } from '@storefront/contract';
import { dehydrate, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readServerState, seedQueryClient } from './server-state.ts';

afterEach(() => vi.useRealTimers());

describe('seedQueryClient', () => {
  it("takes a drawn page's reads as fresh by the browser's clock, however far ahead of the server's it is", () => {
    const drawnAt = Date.parse('2026-11-27T12:00:00Z');
    const server = new QueryClient();
    server.setQueryData(['orders', 'list'], [{ id: 'a' }], { updatedAt: drawnAt });
    const queries = dehydrate(server);

    // The browser's clock two minutes ahead; the queries' freshness is 30 s.
    vi.useFakeTimers({ now: drawnAt + 120_000, toFake: ['Date'] });
    const browser = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
    expect(seedQueryClient(browser, { readAt: drawnAt, queries })).toEqual({ drawnForReader: true });
    const state = browser.getQueryState(['orders', 'list']);
    expect(state?.data).toEqual([{ id: 'a' }]);
    expect(state?.dataUpdatedAt).toBe(drawnAt + 120_000);
    const query = browser.getQueryCache().find({ queryKey: ['orders', 'list'] });
    expect(query?.isStaleByTime(30_000)).toBe(false);
  });

  it('leaves out a state block that is not a dehydrated cache', () => {
    const browser = new QueryClient();
    expect(seedQueryClient(browser, { readAt: 0, queries: { queries: 'nope' } })).toEqual({ drawnForReader: false });
    expect(browser.getQueryCache().getAll()).toEqual([]);
  });
});

describe('readServerState', () => {
  it('keeps both names of the zone a drawn page was written in and read in', () => {
    const state = { readAt: 1, timeZone: 'Asia/Calcutta', readsTimeZone: 'Asia/Kolkata', other: 'left out' };
    document.body.innerHTML = `<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${JSON.stringify(state)}</script>`;
    expect(readServerState()).toEqual({
      readAt: 1,
      pricing: undefined,
      queries: undefined,
      timeZone: 'Asia/Calcutta',
      readsTimeZone: 'Asia/Kolkata',
    });
  });
});

import { type TopUp, type TopUpSettingsRequest, topUpMessages } from '@storefront/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { callApi } from '../../../lib/api-client.ts';
import { ordersKeys, PROCESSING_REFRESH_MS } from '../../../lib/queries/orders.ts';

export const topUpKeys = {
  all: ['top-up'] as const,
  settings: () => [...topUpKeys.all, 'settings'] as const,
};

const charging = (topUp: TopUp | undefined) => topUp?.history.some((entry) => entry.status === 'charging') ?? false;

/** Whether `now` holds a paid top-up that `before` did not: data and an order were added since. */
const paidSince = (before: TopUp, now: TopUp) => {
  const paid = new Set(before.history.filter((entry) => entry.status === 'paid').map((entry) => entry.id));
  return now.history.some((entry) => entry.status === 'paid' && !paid.has(entry.id));
};

/** The top-up read; a top-up paid since the last read added data and an order: the tab's usage and lists are stale. */
function useReadTopUp() {
  const queryClient = useQueryClient();
  return async ({ signal }: { signal: AbortSignal }) => {
    const before = queryClient.getQueryData<TopUp>(topUpKeys.settings());
    const answer = await callApi('getTopUp', { fallbackMessage: topUpMessages.loadFailed, signal });
    if (before && paidSince(before, answer)) void queryClient.invalidateQueries({ queryKey: ordersKeys.all });
    return answer;
  };
}

/**
 * Automatic top-up: the settings, the saved card, this month's spending and the latest top-ups. Read again while a
 * payment is on its way, as the order list is while an order is processing.
 */
export function useTopUp(enabled: boolean) {
  return useQuery({
    queryKey: topUpKeys.settings(),
    enabled,
    queryFn: useReadTopUp(),
    refetchInterval: (query) => (charging(query.state.data) ? PROCESSING_REFRESH_MS : false),
  });
}

/** How long the page waits for a card saved on the provider's page to arrive (Stripe tells the shop by its event). */
const CARD_WAIT_MS = 60_000;
const CARD_POLL_MS = 2000;

/**
 * Back from the card page: the top-up read again every 2 s until the card is there, for a minute at most. With Stripe
 * the card is saved when its event reaches the shop, which may come a moment after the customer is back.
 */
export function useAwaitedCard(awaiting: boolean) {
  const [since] = useState(() => Date.now());
  return useQuery({
    queryKey: topUpKeys.settings(),
    enabled: awaiting,
    queryFn: useReadTopUp(),
    refetchInterval: (query) =>
      awaiting && !query.state.data?.card && Date.now() - since < CARD_WAIT_MS ? CARD_POLL_MS : false,
  });
}

/** Every answer of a change is the whole of the top-up: it replaces what the card shows. */
function useKeepAnswer() {
  const queryClient = useQueryClient();
  return (answer: TopUp) => queryClient.setQueryData(topUpKeys.settings(), answer);
}

export function useSaveTopUp() {
  const keep = useKeepAnswer();
  return useMutation({
    mutationFn: (body: TopUpSettingsRequest) =>
      callApi('saveTopUp', { body, fallbackMessage: topUpMessages.saveFailed }),
    onSuccess: keep,
  });
}

/** Opens the provider's page where the card is saved: the answer is its address, which the caller goes to. */
export function useStartCardSetup() {
  return useMutation({
    mutationFn: () => callApi('startCardSetup', { fallbackMessage: topUpMessages.cardFailed }),
  });
}

export function useRemoveCard() {
  const keep = useKeepAnswer();
  return useMutation({
    mutationFn: () => callApi('removeCard', { fallbackMessage: topUpMessages.removeFailed }),
    onSuccess: keep,
  });
}

import { Alert, Button, CloseButton, Group, NativeSelect, Stack, Tabs, Text, Title } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import {
  allOrdersDownload,
  DEFAULT_PROXY_FORMAT,
  isProxyFormat,
  type Order,
  ordersMessages,
  PROXY_FORMATS,
  type ProductId,
  paths,
  topUpMessages,
} from '@storefront/contract';
import { IconDownload, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { lazyDialog } from '../../../components/lazy-dialog.tsx';
import { ScrollingTabsList } from '../../../components/scrolling-tabs-list.tsx';
import { downloadText } from '../../../lib/download.ts';
import { type FirstReads, read } from '../../../lib/first-read.ts';
import { PAGE_HEADINGS } from '../../../lib/page-headings.ts';
import { ordersKeys, useOrders, useOrderUsage } from '../../../lib/queries/orders.ts';
import { splitPart } from '../../../lib/split-part.tsx';
import { showToast } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useCancelOrder, useDailyUsage, useProcessingOrders } from '../api/proxies-api.ts';
import { proxyUserKeys } from '../api/proxy-users-api.ts';
import { topUpKeys, useAwaitedCard } from '../api/top-up-api.ts';
import { ordersOf, tabOf } from '../proxies-model.ts';
import { ListLinkButton } from './list-link-button.tsx';
import { OrderCard } from './order-card.tsx';

const CancelDialog = lazyDialog(async () => (await import('./cancel-dialog.tsx')).CancelDialog);
const ReplaceDialog = lazyDialog(async () => (await import('./replace-dialog.tsx')).ReplaceDialog);

/**
 * The Residential tab's panel (the data left, the endpoint generator with its Select and number field, the daily
 * chart): a chunk of its own, loaded as the tab is pointed at, focused or chosen (lib/split-part.tsx). Changing tabs is
 * a transition (the router's), so the tab shown stays until the panel's code has come; the server draws it at once.
 */
const residentialTab = splitPart(async () => {
  const tab = await import('./residential-tab.tsx');
  // The server draws the tab whole, the Automatic top-up card's form (a part of its own) included.
  if (import.meta.env.SSR) await tab.preloadTopUpForm();
  return tab.ResidentialTab;
}, 'src/features/proxies/components/residential-tab.tsx');

/** The parts of the page split off into chunks of their own, which the server loads with it. */
export const splitParts = [residentialTab];

const preloadResidential = () => void residentialTab.preload().catch(() => {});

const TABS: { id: ProductId; label: string; empty: string }[] = [
  { id: 'isp_proxies', label: 'Elite ISP Proxies', empty: 'No ISP proxies' },
  { id: 'pk1_isp_proxies', label: 'PK1 ISP Proxies', empty: 'No PK1 ISP proxies' },
  { id: 'residential_proxies', label: 'Residential Proxies', empty: 'No residential proxies' },
];

/** /dashboard/proxies (spec section 2 'Proxies'): the customer's orders by product, downloads, cancel, residential data. */
/** Said on return from a paid checkout: delivery follows the payment provider's confirmation, within seconds. */
const PAID_MESSAGE = 'Thank you! Your order shows here as soon as it is delivered, usually within seconds.';

/** What the server reads to draw this page for its reader (the same keys as the hooks below). */
export const firstReads: FirstReads = (search) => [
  read('listOrders', ordersKeys.list()),
  read('listOrderUsage', ordersKeys.usage()),
  read('listProcessingOrders', ordersKeys.processing()),
  // The Residential tab's daily chart, its Automatic top-up card and its Proxy Users card's list, drawn with the page
  // rather than arriving under it; no other tab shows them.
  ...(tabOf(search.get('tab')) === 'residential_proxies'
    ? [
        read('getDailyUsage', ordersKeys.dailyUsage()),
        read('getTopUp', topUpKeys.settings()),
        read('listProxyUsers', proxyUserKeys.list()),
      ]
    : []),
];

export function ProxiesPage() {
  usePageTitle('Proxies');
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const tab = tabOf(params.get('tab'));
  // Back from a paid checkout (?paid=1): said once, and the address keeps only its tab (a reload says nothing).
  const paid = params.get('paid') === '1';
  useEffect(() => {
    if (!paid) return;
    showToast({ color: 'green', title: 'Payment received', message: PAID_MESSAGE });
    setParams(
      (current) => {
        current.delete('paid');
        return current;
      },
      { replace: true },
    );
  }, [paid, setParams]);
  // Back from the card page (?card=saved): said once the card is there (with Stripe, when its event has arrived).
  const cardSaved = params.get('card') === 'saved';
  const [awaitingCard, setAwaitingCard] = useState(false);
  useEffect(() => {
    if (!cardSaved) return;
    setAwaitingCard(true);
    setParams(
      (current) => {
        current.delete('card');
        return current;
      },
      { replace: true },
    );
  }, [cardSaved, setParams]);
  const awaitedCard = useAwaitedCard(awaitingCard).data?.card;
  useEffect(() => {
    if (!awaitingCard || !awaitedCard) return;
    showToast({ color: 'green', message: topUpMessages.cardSaved });
    setAwaitingCard(false);
  }, [awaitingCard, awaitedCard]);
  const orders = useOrders({ refreshWhileProcessing: true });
  const usage = useOrderUsage();
  // A customer with residential data has its daily chart's read made as the page opens at any tab, so that changing
  // to the Residential tab shows the chart at once instead of moving the card's fields down when it arrives.
  useDailyUsage((usage.data?.length ?? 0) > 0);
  const processing = useProcessingOrders();
  const cancel = useCancelOrder();
  const [cancelling, setCancelling] = useState<Order | null>(null);
  // The dialog opens in a transition: the page's render for it is sliced between frames rather than one long task.
  const askToCancel = useCallback((order: Order) => startTransition(() => setCancelling(order)), []);
  const [replacing, setReplacing] = useState<Order | null>(null);
  const askToReplace = useCallback((order: Order) => startTransition(() => setReplacing(order)), []);
  const [dismissed, setDismissed] = useState<unknown>(null);
  const [format, setFormat] = useLocalStorage({ key: 'proxy-format', defaultValue: DEFAULT_PROXY_FORMAT });
  const safeFormat = isProxyFormat(format) ? format : DEFAULT_PROXY_FORMAT;

  // Spec section 4: a fetch failure clears the affected list.
  const orderList = orders.isError ? [] : (orders.data ?? []);
  // Spec section 8: each list's own message; the server's words are not shown for a failed fetch.
  const error = orders.isError
    ? orders.error
    : usage.isError
      ? usage.error
      : processing.isError
        ? processing.error
        : null;
  const errorMessage = orders.isError
    ? ordersMessages.fetchOrdersFailed
    : usage.isError
      ? ordersMessages.fetchUsageFailed
      : ordersMessages.fetchProcessingFailed;
  const hasProxies = orderList.some((order) => order.proxies.length > 0);

  const refresh = () => {
    setDismissed(null);
    void orders.refetch();
    void usage.refetch();
    void processing.refetch();
    void queryClient.invalidateQueries({ queryKey: topUpKeys.all });
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" gap="sm">
        <Title order={1} size="h2">
          {PAGE_HEADINGS[paths.proxies].title}
        </Title>
        <Group gap="xs">
          {/* While the orders load, the list's buttons hold their room, unseen and out of reach, so that the page does
              not shift when they appear (on a phone they take a row of their own); without proxies they go. */}
          {(hasProxies || orders.isPending) && (
            <Group
              gap="xs"
              style={orders.isPending ? { visibility: 'hidden' } : undefined}
              aria-hidden={orders.isPending || undefined}
              inert={orders.isPending || undefined}
            >
              <Button
                variant="default"
                leftSection={<IconDownload size={16} aria-hidden />}
                onClick={() => {
                  const file = allOrdersDownload(orderList, safeFormat);
                  downloadText(file.fileName, file.content);
                }}
              >
                Download List
              </Button>
              <ListLinkButton tab={tab} format={safeFormat} />
            </Group>
          )}
          <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={refresh}>
            Refresh
          </Button>
          <Button component={Link} to={paths.purchase} leftSection={<IconPlus size={16} aria-hidden />}>
            Buy More
          </Button>
        </Group>
      </Group>

      {error && dismissed !== error && (
        <Alert color="red" variant="light" role="alert">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text size="sm">{errorMessage}</Text>
            <CloseButton aria-label="Dismiss error" size="sm" onClick={() => setDismissed(error)} />
          </Group>
        </Alert>
      )}

      {/* The browser's own select: a phone's own picker, and nothing to position or keep hidden as the page loads (a
          Mantine Select's closed list is positioned as it mounts, a style recalculation of the whole page). */}
      <NativeSelect
        label="Proxy format for copies and downloads"
        data={Object.keys(PROXY_FORMATS)}
        value={safeFormat}
        onChange={(event) => {
          const value = event.currentTarget.value;
          setFormat(isProxyFormat(value) ? value : DEFAULT_PROXY_FORMAT);
        }}
        maw={320}
      />

      <Tabs
        value={tab}
        onChange={(value) => setParams(value ? { tab: value } : {}, { replace: true })}
        keepMounted={false}
      >
        <ScrollingTabsList value={tab}>
          {TABS.map((item) => (
            <Tabs.Tab
              key={item.id}
              value={item.id}
              {...(item.id === 'residential_proxies' && {
                onPointerEnter: preloadResidential,
                onPointerDown: preloadResidential,
                onFocus: preloadResidential,
              })}
            >
              {item.label}
            </Tabs.Tab>
          ))}
        </ScrollingTabsList>
        {TABS.slice(0, 2).map((item) => {
          const list = ordersOf(orderList, item.id);
          return (
            <Tabs.Panel key={item.id} value={item.id} pt="md">
              {orders.isPending ? (
                <Text c="dimmed">Loading...</Text>
              ) : orders.isError ? (
                <Text c="dimmed" ta="center" py="xl">
                  Your orders could not be loaded. Refresh to try again.
                </Text>
              ) : list.length === 0 ? (
                <Stack align="center" gap="xs" py="xl">
                  <Text c="dimmed">{item.empty}</Text>
                  <Button component={Link} to={paths.purchase} variant="light">
                    Buy {item.label}
                  </Button>
                </Stack>
              ) : (
                <Stack gap="sm">
                  {list.map((order) => (
                    <OrderCard
                      key={order.id}
                      order={order}
                      format={safeFormat}
                      onCancel={askToCancel}
                      onReplace={askToReplace}
                    />
                  ))}
                </Stack>
              )}
            </Tabs.Panel>
          );
        })}
        <Tabs.Panel value="residential_proxies" pt="md">
          <residentialTab.Part
            usage={usage.isError ? [] : (usage.data ?? [])}
            processing={processing.isError ? [] : (processing.data ?? [])}
          />
        </Tabs.Panel>
      </Tabs>

      <ReplaceDialog opened={replacing !== null} order={replacing} onClose={() => setReplacing(null)} />
      <CancelDialog
        opened={cancelling !== null}
        order={cancelling}
        cancelling={cancel.isPending}
        error={cancel.error?.message ?? null}
        onKeep={() => {
          cancel.reset();
          setCancelling(null);
        }}
        onConfirm={(order) =>
          cancel.mutate(order.id, {
            onSuccess: () => {
              setCancelling(null);
              showToast({
                color: 'green',
                message: 'Order cancelled: it ends at the end of its billing cycle.',
              });
            },
          })
        }
      />
    </Stack>
  );
}

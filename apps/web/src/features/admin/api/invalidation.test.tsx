// @vitest-environment happy-dom
import type { CreateCouponRequest } from '@storefront/contract';
import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { featuresKeys } from '../../../lib/queries/features.ts';
import { ordersKeys } from '../../../lib/queries/orders.ts';
import { fakeApi } from '../../../test/fake-api.ts';
import { alertsKeys, auditKeys, couponKeys, customOrderKeys, inventoryKeys } from './admin-keys.ts';
import { useCreateCoupon } from './coupons-api.ts';
import { useFulfilCustomOrder } from './custom-orders-api.ts';
import { useSaveFeatures } from './features-api.ts';
import { useUploadIps } from './inventory-api.ts';
import { useMoveSandboxClock } from './sandbox-clock-api.ts';

afterEach(() => vi.unstubAllGlobals());

/** Every key the console and the customer's pages hold data under, each with data already loaded. */
const loaded: QueryKey[] = [
  featuresKeys.public(),
  featuresKeys.admin(),
  couponKeys.list(),
  couponKeys.options(),
  couponKeys.redemptions(),
  auditKeys.page({}),
  alertsKeys.all,
  inventoryKeys.residential(),
  inventoryKeys.stock('pk1'),
  inventoryKeys.subnets('pk1'),
  inventoryKeys.subnet('pk1', '198.18.5.0/24', {}),
  inventoryKeys.stock('isp'),
  inventoryKeys.subnets('isp'),
  customOrderKeys.user('ann@example.com'),
  ordersKeys.list(),
  ordersKeys.history(),
];

/** Runs one mutation against a cache holding `loaded`, and answers the keys it marked stale. */
async function invalidatedBy<T>(useMutationHook: () => { mutateAsync: (input: T) => Promise<unknown> }, input: T) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  for (const key of loaded) queryClient.setQueryData(key, {});
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(useMutationHook, { wrapper });
  await result.current.mutateAsync(input);
  return queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.isInvalidated)
    .map((query) => query.queryKey);
}

describe('a change reloads only what it changed', () => {
  it("saving the feature flags: the customers' flags and the audit log (the console's list is the answer)", async () => {
    fakeApi({ 'POST /api/admin/features': () => ({ body: [] }) });
    expect(await invalidatedBy(useSaveFeatures, [])).toEqual([featuresKeys.public(), auditKeys.page({})]);
  });

  it('creating a coupon: the coupon list, the redemptions and the audit log; not the fixed options', async () => {
    fakeApi({ 'POST /api/admin/coupons': () => ({ body: { message: 'Coupon created' } }) });
    const coupon: CreateCouponRequest = {
      code: 'A',
      name: 'Abc',
      duration: 'once',
      discountType: 'percent_off',
      appliesToProducts: ['isp_proxies'],
      percentOff: 10,
    };
    expect(await invalidatedBy(useCreateCoupon, coupon)).toEqual([
      couponKeys.list(),
      couponKeys.redemptions(),
      auditKeys.page({}),
    ]);
  });

  it("an upload to PK1: PK1's stock and subnets (and their open IP lists), the alerts and the audit log", async () => {
    fakeApi({
      'POST /api/admin/stocks/pk1/upload': () => ({ body: { message: 'ok', added: 1, skipped: 0, delivered: 0 } }),
    });
    expect(await invalidatedBy(() => useUploadIps('pk1'), ['198.18.5.1:8000:u:p'])).toEqual([
      auditKeys.page({}),
      alertsKeys.all,
      inventoryKeys.stock('pk1'),
      inventoryKeys.subnets('pk1'),
      inventoryKeys.subnet('pk1', '198.18.5.0/24', {}),
    ]);
  });

  it("fulfilling a custom order: the customer's lookup and the audit log", async () => {
    fakeApi({ 'POST /api/admin/orders/fulfill': () => ({ body: { customOrders: [] } }) });
    expect(await invalidatedBy(useFulfilCustomOrder, { userId: 'u', orderId: 'o', ips: [] })).toEqual([
      auditKeys.page({}),
      customOrderKeys.user('ann@example.com'),
    ]);
  });

  it('moving the sandbox clock: orders, inventory, custom orders, alerts and the audit log; not coupons or flags', async () => {
    fakeApi({ 'POST /api/admin/sandbox/clock': () => ({ body: {} }) });
    const stale = await invalidatedBy(useMoveSandboxClock, '2026-12-25T00:00:00.000Z');
    expect(stale).not.toContainEqual(couponKeys.list());
    expect(stale).not.toContainEqual(couponKeys.options());
    expect(stale).not.toContainEqual(featuresKeys.public());
    expect(stale).not.toContainEqual(featuresKeys.admin());
    expect(stale).toHaveLength(loaded.length - 5);
  });
});

import { Box, SimpleGrid, Skeleton, Stack, Tabs, Title } from '@mantine/core';
import { type AdminTab, adminTabOf, type IpPool, paths } from '@storefront/contract';
import { useSearchParams } from 'react-router';
import { ScrollingTabsList } from '../../../components/scrolling-tabs-list.tsx';
import { site } from '../../../config/site.ts';
import { type FirstRead, type FirstReads, read } from '../../../lib/first-read.ts';
import { featuresKeys } from '../../../lib/queries/features.ts';
import { splitPart } from '../../../lib/split-part.tsx';
import { PAGE_TITLES, usePageTitle } from '../../../lib/use-page-title.ts';
import { ADMIN_TABS } from '../admin-tabs.ts';
import { alertsKeys, auditKeys, couponKeys, inventoryKeys } from '../api/admin-keys.ts';
import { useOpenAlerts } from '../api/alerts-api.ts';
import { AdminAlerts } from './admin-alerts.tsx';
import { ActiveCoupons, CouponRedemptions } from './coupons.tsx';
import { CustomOrdering } from './custom-ordering.tsx';
import { PoolInventoryCard } from './pool-inventory-card.tsx';
import { PurchaseToggleCard } from './purchase-toggle-card.tsx';
import { ResidentialInventoryCard } from './residential-inventory-card.tsx';
import { SandboxClockCard } from './sandbox-clock-card.tsx';

/**
 * The two tabs with Mantine's Select (PK1 IP Inventory, Audit Log): each a chunk of its own, with Select, loaded as the
 * tab is pointed at, focused or chosen (lib/split-part.tsx). Changing tabs is a transition (the router's), so the tab
 * shown stays until the panel's code has come; the server draws it at once and links its chunk and styles.
 */
const subnetInventory = splitPart(
  async () => (await import('./subnet-inventory.tsx')).SubnetInventory,
  'src/features/admin/components/subnet-inventory.tsx',
);
const auditLog = splitPart(
  async () => (await import('./audit-log.tsx')).AuditLogView,
  'src/features/admin/components/audit-log.tsx',
);

/** The parts of the console split off into chunks of their own, which the server loads with it. */
export const splitParts = [subnetInventory, auditLog];

/** The tabs whose panel is a part of its own: its code loads as the tab is pointed at or focused. */
const TAB_PARTS: Partial<Record<AdminTab, { preload: () => Promise<unknown> }>> = {
  pk1_inventory_list: subnetInventory,
  audit_log: auditLog,
};

/**
 * Grey shapes of the tab bar and the first cards over the console while it is held back (below): drawn on top of it,
 * out of the layout, so taking them away moves nothing.
 */
function ConsoleSkeleton() {
  return (
    <Stack gap="md" pos="absolute" top={0} left={0} right={0} aria-hidden>
      <Skeleton h={36} animate={false} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Skeleton h={240} radius="md" animate={false} />
        <Skeleton h={240} radius="md" animate={false} />
      </SimpleGrid>
    </Stack>
  );
}

const stock = (pool: IpPool) =>
  read('getIpStock', inventoryKeys.stockPage(pool, undefined), { params: { pool }, query: {} });

/** Each tab's first reads (features/admin/api). */
const tabReads: Record<AdminTab, FirstRead[]> = {
  inventory: [
    read('listFeatureFlags', featuresKeys.admin()),
    read('getResidentialStock', inventoryKeys.residential()),
    read('getResidentialDailyUsage', inventoryKeys.residentialDaily()),
    read('listTopResidentialCustomers', inventoryKeys.residentialTop()),
    stock('pk1'),
    stock('isp'),
  ],
  // Nothing until a customer is looked up.
  custom_ordering: [],
  active_coupons: [read('listCoupons', couponKeys.list())],
  coupon_redemptions: [read('listCouponRedemptions', couponKeys.redemptions())],
  pk1_inventory_list: [
    read('listSubnets', inventoryKeys.subnetPage('pk1', {}, undefined), { params: { pool: 'pk1' }, query: {} }),
    read('listReplacementStats', inventoryKeys.replacements('pk1', undefined), { params: { pool: 'pk1' }, query: {} }),
  ],
  audit_log: [read('listAuditLog', auditKeys.page({}), { query: {} })],
};

/** What the server reads to draw the console for an administrator: the open alerts every tab shows, then the tab's. */
export const firstReads: FirstReads = (search) => [
  read('listOpenAlerts', alertsKeys.all),
  ...tabReads[adminTabOf(search.get('tab'))],
];

/**
 * /dashboard/admin (spec section 2 'Admin'): the tab lives in `?tab=`, default inventory, with the spec's aliases.
 * Rendered for an administrator only: the route's gate (features/dashboard/components/admin-route.tsx) checks the role
 * and shows everyone else 'Access Denied' without downloading this console.
 */
export function AdminPage() {
  const [params, setParams] = useSearchParams();
  const tab = adminTabOf(params.get('tab'));
  // Each tab its own title (WCAG 2.4.2): the browser's history and a screen reader tell them apart.
  const tabLabel = ADMIN_TABS.find((entry) => entry.value === tab)?.label;
  const alerts = useOpenAlerts();
  usePageTitle(tabLabel ? `${tabLabel} – ${PAGE_TITLES[paths.admin]}` : PAGE_TITLES[paths.admin]);
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Admin Dashboard
      </Title>
      {/*
        The open alerts go above the tabs: until their first answer the console is laid out (its tab's data loading
        alongside) but not shown, so an alert arriving does not push the tabs and cards down (CLS).
      */}
      <Box pos="relative">
        {alerts.isPending && <ConsoleSkeleton />}
        <Stack gap="lg" inert={alerts.isPending} style={alerts.isPending ? { visibility: 'hidden' } : undefined}>
          <AdminAlerts />
          <Tabs
            value={tab}
            onChange={(value) => setParams(value && value !== 'inventory' ? { tab: value } : {}, { replace: true })}
            keepMounted={false}
          >
            <ScrollingTabsList value={tab}>
              {ADMIN_TABS.map((entry) => {
                const preload = () => void TAB_PARTS[entry.value]?.preload().catch(() => {});
                return (
                  <Tabs.Tab
                    key={entry.value}
                    value={entry.value}
                    onPointerEnter={preload}
                    onPointerDown={preload}
                    onFocus={preload}
                  >
                    {entry.label}
                  </Tabs.Tab>
                );
              })}
            </ScrollingTabsList>
            <Tabs.Panel value="inventory" pt="md">
              <Stack gap="md">
                <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                  <PurchaseToggleCard />
                  <ResidentialInventoryCard />
                  <PoolInventoryCard pool="pk1" />
                  <PoolInventoryCard pool="isp" />
                </SimpleGrid>
                {site.sandboxPayments && <SandboxClockCard />}
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="pk1_inventory_list" pt="md">
              <subnetInventory.Part />
            </Tabs.Panel>
            <Tabs.Panel value="custom_ordering" pt="md">
              <CustomOrdering />
            </Tabs.Panel>
            <Tabs.Panel value="audit_log" pt="md">
              <auditLog.Part />
            </Tabs.Panel>
            <Tabs.Panel value="active_coupons" pt="md">
              <ActiveCoupons />
            </Tabs.Panel>
            <Tabs.Panel value="coupon_redemptions" pt="md">
              <CouponRedemptions />
            </Tabs.Panel>
          </Tabs>
        </Stack>
      </Box>
    </Stack>
  );
}

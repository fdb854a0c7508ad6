import { Alert, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { ADMIN_TABS, type AdminTab, adminTabOf } from '@storefront/contract';
import { IconLock, IconTools } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { site } from '../../../config/site.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { AuditLogView } from './audit-log.tsx';
import { CustomOrdering } from './custom-ordering.tsx';
import { PoolInventoryCard } from './pool-inventory-card.tsx';
import { PurchaseToggleCard } from './purchase-toggle-card.tsx';
import { ResidentialInventoryCard } from './residential-inventory-card.tsx';
import { SandboxClockCard } from './sandbox-clock-card.tsx';
import { SubnetInventory } from './subnet-inventory.tsx';

/** Tabs whose screens come with the next part of the console; they say so rather than show nothing. */
const COMING: Partial<Record<AdminTab, string>> = {
  active_coupons: 'Coupon management (create, switch on or off, delete) comes with the next release of the console.',
  coupon_redemptions: 'Coupon redemption statistics come with the next release of the console.',
};

/** /dashboard/admin (spec section 2 'Admin'): the tab lives in `?tab=`, default inventory, with the spec's aliases. */
export function AdminPage() {
  usePageTitle('Admin');
  const { isAdmin } = useAuth();
  const [params, setParams] = useSearchParams();
  const tab = adminTabOf(params.get('tab'));
  if (!isAdmin) {
    return (
      <Alert color="red" variant="light" title="Access Denied" icon={<IconLock size={18} aria-hidden />} role="alert">
        You don't have permission to access this page. Administrator privileges are required.
      </Alert>
    );
  }
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Admin Dashboard
      </Title>
      <Tabs
        value={tab}
        onChange={(value) => setParams(value && value !== 'inventory' ? { tab: value } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          {ADMIN_TABS.map((entry) => (
            <Tabs.Tab key={entry.value} value={entry.value}>
              {entry.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
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
          <SubnetInventory />
        </Tabs.Panel>
        <Tabs.Panel value="custom_ordering" pt="md">
          <CustomOrdering />
        </Tabs.Panel>
        <Tabs.Panel value="audit_log" pt="md">
          <AuditLogView />
        </Tabs.Panel>
        {Object.entries(COMING).map(([value, text]) => (
          <Tabs.Panel key={value} value={value} pt="md">
            <Alert color="blue" variant="light" title="Coming next" icon={<IconTools size={18} aria-hidden />}>
              <Text size="sm">{text}</Text>
            </Alert>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}

import { Alert, Stack, Text, Title } from '@mantine/core';
import { IconLock, IconTools } from '@tabler/icons-react';
import { site } from '../../../config/site.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { SandboxClockCard } from './sandbox-clock-card.tsx';

/** /dashboard/admin: 'Access Denied' for non-admins (spec section 6); the console itself is not built yet. */
export function AdminPage() {
  usePageTitle('Admin');
  const { isAdmin } = useAuth();
  if (!isAdmin) {
    return (
      <Alert color="red" variant="light" title="Access Denied" icon={<IconLock size={18} aria-hidden />} role="alert">
        You do not have permission to view this page. It is for administrators only.
      </Alert>
    );
  }
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Admin
      </Title>
      <Alert color="yellow" variant="light" title="Not built yet" icon={<IconTools size={18} aria-hidden />}>
        <Text size="sm">
          The administrator console (feature toggles, stock views, PK1 uploads and subnet swaps, custom orders, coupons)
          is not part of this release yet. Its PK1 upload call exists in the API (POST /api/admin/stocks/pk1/upload).
        </Text>
      </Alert>
      {site.sandboxPayments && <SandboxClockCard />}
    </Stack>
  );
}

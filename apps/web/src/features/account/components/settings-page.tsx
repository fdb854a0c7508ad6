import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { paths } from '@storefront/contract';
import { IconKey } from '@tabler/icons-react';
import { lazyDialog } from '../../../components/lazy-dialog.tsx';
import { site } from '../../../config/site.ts';
import { type FirstReads, read } from '../../../lib/first-read.ts';
import { PAGE_HEADINGS } from '../../../lib/page-headings.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { accountKeys } from '../api/account-keys.ts';
import { ApiKeysCard } from './api-keys-card.tsx';
import { AuthorizedIpsCard } from './authorized-ips-card.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';
import { UsageDomainsCard } from './usage-domains-card.tsx';
import { UsageEmailsCard } from './usage-emails-card.tsx';

const ChangePasswordDialog = lazyDialog(
  async () => (await import('./change-password-dialog.tsx')).ChangePasswordDialog,
);

/** What the server reads to draw this page for its reader (the same keys as its cards' hooks). */
export const firstReads: FirstReads = () => [
  read('listApiKeys', accountKeys.apiKeys()),
  read('getAuthorizedIps', accountKeys.authorizedIps()),
  read('getPreferences', accountKeys.preferences()),
];

export function SettingsPage() {
  const { user, refetch } = useAuth();
  const [passwordOpened, passwordDialog] = useDisclosure(false);
  usePageTitle('Settings');

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {PAGE_HEADINGS[paths.settings].title}
      </Title>
      <Card withBorder padding="lg">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Title order={2} size="h4">
              Password
            </Title>
            <Text size="sm" c="dimmed">
              Changing your password signs out your other devices.
            </Text>
          </Stack>
          <Button leftSection={<IconKey size={16} aria-hidden />} onClick={passwordDialog.open}>
            Change Password
          </Button>
        </Group>
      </Card>
      <TwoFactorCard
        enabled={user?.twoFactorEnabled === true}
        onChanged={async () => {
          await refetch();
        }}
      />
      <ApiKeysCard />
      <AuthorizedIpsCard />
      <UsageEmailsCard />
      {site.usageDomains && <UsageDomainsCard />}
      <ChangePasswordDialog opened={passwordOpened} onClose={passwordDialog.close} />
    </Stack>
  );
}

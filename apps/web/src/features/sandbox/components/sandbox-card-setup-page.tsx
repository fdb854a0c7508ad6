import '../../../styles/app-mantine.ts';
import { Alert, Anchor, Button, Card, Center, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { paths, proxiesTabPath, topUpMessages } from '@storefront/contract';
import { IconCreditCard } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSandboxCardSetup, useSaveSandboxCard } from '../api/sandbox-api.ts';
import { inAppPath } from '../in-app-path.ts';
import { SandboxFrame } from './sandbox-frame.tsx';

type TestCard = 'ok' | 'declined';

/** Where the customer goes back to without saving a card: the tab with automatic top-up. */
const residentialTab = proxiesTabPath('residential_proxies');

/**
 * The sandbox provider's page that saves a card for automatic top-up (/sandbox/card/:id), as Stripe Checkout in setup
 * mode does: the customer picks a test card, and is sent back to the shop once it is saved.
 */
export function SandboxCardSetupPage() {
  usePageTitle('Sandbox card');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const setup = useSandboxCardSetup(id);
  const save = useSaveSandboxCard(id);
  const [card, setCard] = useState<TestCard>('ok');
  const labelId = useId();
  const data = setup.data;

  const submit = () =>
    save.mutate(card, {
      onSuccess: ({ returnUrl }) => {
        const path = inAppPath(returnUrl);
        if (path) void navigate(path);
        else window.location.assign(returnUrl);
      },
    });

  return (
    <SandboxFrame width={480}>
      <Card withBorder padding="xl" radius="md">
        {setup.isPending ? (
          <Center py="xl">
            <Loader aria-label="Loading the card page" />
          </Center>
        ) : setup.isError ? (
          <Stack>
            <Title order={1} size="h3">
              Card page unavailable
            </Title>
            <Text>
              {setup.error instanceof ApiError && setup.error.status === 404
                ? topUpMessages.noSetupPage
                : setup.error.message}
            </Text>
            {setup.error instanceof ApiError && setup.error.status === 401 ? (
              <Button component={Link} to={paths.login}>
                Sign in
              </Button>
            ) : (
              <Anchor component={Link} to={residentialTab}>
                Back to your proxies
              </Anchor>
            )}
          </Stack>
        ) : data ? (
          <Stack gap="sm">
            <Title order={1} size="h3">
              Save a card for automatic top-up (sandbox)
            </Title>
            {save.isSuccess ? (
              <Alert color="green" variant="light" role="status">
                Card saved. Taking you back to the shop...
              </Alert>
            ) : data.used ? (
              <>
                <Alert color="gray" variant="light">
                  {topUpMessages.setupUsed}
                </Alert>
                <Anchor component={Link} to={residentialTab} size="sm">
                  Back to your proxies
                </Anchor>
              </>
            ) : (
              <>
                <Text size="sm" c="dimmed">
                  The shop charges this card when your residential data runs low, within the caps you set. No card is
                  charged now.
                </Text>
                <Stack gap={6}>
                  <Text size="sm" fw={500} id={labelId}>
                    Test card
                  </Text>
                  {/* Mantine's SegmentedControl is a radio group: named by the label above. */}
                  <SegmentedControl
                    aria-labelledby={labelId}
                    fullWidth
                    orientation="vertical"
                    value={card}
                    onChange={(value) => setCard(value === 'declined' ? 'declined' : 'ok')}
                    data={[
                      { value: 'ok', label: 'Test card that pays' },
                      { value: 'declined', label: 'Card that is declined' },
                    ]}
                  />
                  <Text size="xs" c="dimmed">
                    {card === 'ok'
                      ? 'Every top-up charged to it is paid.'
                      : 'Every top-up charged to it fails, as a card with no funds does.'}
                  </Text>
                </Stack>
                {save.isError && (
                  <Alert color="red" variant="light" role="alert">
                    {save.error.message}
                  </Alert>
                )}
                <Button
                  mt="sm"
                  size="md"
                  leftSection={<IconCreditCard size={18} aria-hidden />}
                  loading={save.isPending}
                  onClick={submit}
                >
                  Save card
                </Button>
                <Anchor component={Link} to={residentialTab} size="sm" ta="center">
                  Cancel and return to the shop
                </Anchor>
              </>
            )}
          </Stack>
        ) : null}
      </Card>
    </SandboxFrame>
  );
}

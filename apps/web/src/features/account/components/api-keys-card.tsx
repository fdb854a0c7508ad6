import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  API_KEY_LIMIT,
  type ApiKey,
  apiKeyMessages,
  type CreatedApiKey,
  formatDate,
  proxyListUrl,
} from '@storefront/contract';
import { IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { CopyValueButton } from '../../../components/copy-value-button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { LazyModal } from '../../../components/lazy-dialog.tsx';
import { shopOrigin } from '../../../lib/page-origin.ts';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { showToast } from '../../../lib/toasts.ts';
import { withSchemas } from '../../../lib/zod-without-eval.ts';
import { useApiKeys, useRevokeApiKey } from '../api/api-keys-api.ts';

const CreateApiKeyForm = lazy(async () => ({
  default: (await withSchemas(() => import('./create-api-key-form.tsx'))).CreateApiKeyForm,
}));

function RevokeButton({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => void }) {
  return (
    <Button
      size="xs"
      variant="subtle"
      color="red"
      aria-label={`Revoke ${apiKey.name}`}
      onClick={() => onRevoke(apiKey)}
      style={{ flexShrink: 0 }}
    >
      Revoke
    </Button>
  );
}

/** Personal API keys: create (named, shown once), list with first characters and dates, revoke. */
export function ApiKeysCard() {
  const origin = shopOrigin();
  const timeZone = useTimeZone();
  const day = (iso: string) => formatDate(iso, 'date', timeZone);
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const list = keys.data ?? [];
  const full = list.length >= API_KEY_LIMIT;

  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4} maw={560}>
            <Group gap="xs">
              <Title order={2} size="h4">
                API Keys
              </Title>
              {keys.isSuccess && (
                <Badge color={full ? 'orange' : 'gray'} variant="light">
                  {list.length} of {API_KEY_LIMIT}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              A key lets your tools and scripts read your orders and load your proxy lists by link. It cannot buy,
              cancel or change your account. See the{' '}
              <Anchor href="/api/docs" target="_blank" rel="noopener">
                API reference
              </Anchor>
              .
            </Text>
          </Stack>
          <Button leftSection={<IconPlus size={16} aria-hidden />} disabled={full} onClick={() => setCreating(true)}>
            Create API Key
          </Button>
        </Group>
        {full && (
          <Text size="sm" c="orange">
            {apiKeyMessages.limitReached}
          </Text>
        )}

        {keys.isPending ? (
          <Text c="dimmed" size="sm">
            Loading...
          </Text>
        ) : keys.isError ? (
          <FormError message={keys.error.message} />
        ) : list.length === 0 ? (
          <Text c="dimmed" size="sm">
            No API keys yet.
          </Text>
        ) : (
          <>
            <Table.ScrollContainer minWidth={560} visibleFrom="sm">
              <Table verticalSpacing="xs" aria-label="API keys">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Key</Table.Th>
                    <Table.Th>Created</Table.Th>
                    <Table.Th>Last used</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((key) => (
                    <Table.Tr key={key.id}>
                      <Table.Td style={{ wordBreak: 'break-word' }}>{key.name}</Table.Td>
                      <Table.Td>
                        <Code>{key.start}…</Code>
                      </Table.Td>
                      <Table.Td>{day(key.createdAt)}</Table.Td>
                      <Table.Td>{key.lastUsedAt ? day(key.lastUsedAt) : 'Never'}</Table.Td>
                      <Table.Td ta="right">
                        <RevokeButton apiKey={key} onRevoke={setRevoking} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Stack gap={0} hiddenFrom="sm">
              {list.map((key) => (
                <Group
                  key={key.id}
                  justify="space-between"
                  wrap="nowrap"
                  py="xs"
                  style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
                >
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                      {key.name}
                    </Text>
                    <Code style={{ alignSelf: 'flex-start' }}>{key.start}…</Code>
                    <Text size="xs" c="dimmed">
                      Created {day(key.createdAt)} ·{' '}
                      {key.lastUsedAt ? `Last used ${day(key.lastUsedAt)}` : 'Never used'}
                    </Text>
                  </Stack>
                  <RevokeButton apiKey={key} onRevoke={setRevoking} />
                </Group>
              ))}
            </Stack>
          </>
        )}
      </Stack>

      <LazyModal opened={creating} onClose={() => setCreating(false)} title="Create an API key" centered>
        <Suspense fallback={<Loader size="sm" aria-label="Loading the form" />}>
          <CreateApiKeyForm
            onCreated={(key) => {
              setCreating(false);
              setCreated(key);
            }}
          />
        </Suspense>
      </LazyModal>

      <LazyModal
        opened={created !== null}
        onClose={() => setCreated(null)}
        title="Your new API key"
        centered
        size="lg"
        closeOnClickOutside={false}
      >
        {created && (
          <Stack gap="md">
            <Alert color="yellow" variant="light">
              {apiKeyMessages.created}
            </Alert>
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                {created.name}
              </Text>
              <Code block data-testid="new-api-key" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
                {created.key}
              </Code>
              <Group>
                <CopyValueButton value={created.key} label="Copy key" />
              </Group>
            </Stack>
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                Your proxy list by link
              </Text>
              <Text size="xs" c="dimmed">
                Every Elite ISP and PK1 proxy you hold, one a line; the Proxies page gives the link for each product and
                format.
              </Text>
              <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
                {proxyListUrl(origin, { key: created.key })}
              </Code>
              <Group>
                <CopyValueButton value={proxyListUrl(origin, { key: created.key })} label="Copy link" />
              </Group>
            </Stack>
            <Button onClick={() => setCreated(null)}>Done</Button>
          </Stack>
        )}
      </LazyModal>

      <LazyModal opened={revoking !== null} onClose={() => setRevoking(null)} title="Revoke this API key?" centered>
        {revoking && (
          <Stack gap="md">
            <FormError message={revoke.error?.message ?? null} />
            <Text size="sm">
              <strong>{revoking.name}</strong> (<Code>{revoking.start}…</Code>) stops working at once: every tool and
              list link using it is refused from its next request.
            </Text>
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => {
                  revoke.reset();
                  setRevoking(null);
                }}
              >
                Keep Key
              </Button>
              <Button
                color="red"
                loading={revoke.isPending}
                onClick={() =>
                  revoke.mutate(revoking.id, {
                    onSuccess: () => {
                      setRevoking(null);
                      showToast({ color: 'green', message: apiKeyMessages.revoked });
                    },
                  })
                }
              >
                Revoke Key
              </Button>
            </Group>
          </Stack>
        )}
      </LazyModal>
    </Card>
  );
}

import { Badge, Button, Card, Code, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AUTHORIZED_IPS_MAX } from '@storefront/contract';
import { IconPlus } from '@tabler/icons-react';
import { FormError } from '../../../components/form-error.tsx';
import { useAuthorizedIps, useSaveAuthorizedIps } from '../api/gateway-settings-api.ts';

/**
 * Authorised IPs: tools connecting from these addresses use the residential gateway without credentials;
 * "Only from these IPs" refuses the password anywhere else. Every change is saved at once; the server checks each
 * address and says in words what it refuses.
 */
export function AuthorizedIpsCard() {
  const current = useAuthorizedIps();
  const save = useSaveAuthorizedIps();
  // The address as typed: the server checks it and says in words what it refuses (a blank one is not sent).
  const form = useForm({ initialValues: { ip: '' }, transformValues: ({ ip }) => ip.trim() });
  const typed = form.getValues().ip;
  const ips = current.data?.ips ?? [];
  const only = current.data?.onlyFromTheseIps ?? false;
  const full = ips.length >= AUTHORIZED_IPS_MAX;
  const suggestion = current.data?.currentIp;

  const saveList = (next: string[], onlyFromTheseIps = only) =>
    save.mutate(
      { ips: next, onlyFromTheseIps: next.length === 0 ? false : onlyFromTheseIps },
      { onSuccess: () => form.reset() },
    );
  const add = form.onSubmit((ip) => {
    if (ip !== '') saveList([...ips, ip]);
  });

  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Stack gap={4} maw={620}>
          <Group gap="xs">
            <Title order={2} size="h4">
              Authorised IPs
            </Title>
            {current.isSuccess && (
              <Badge color={full ? 'orange' : 'gray'} variant="light">
                {ips.length} of {AUTHORIZED_IPS_MAX}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            Tools connecting from these addresses use your residential proxies without a username and password (HTTP and
            SOCKS5), with any country and a rotating IP. One IPv4 or IPv6 address each.
          </Text>
        </Stack>

        {current.isPending ? (
          <Text c="dimmed" size="sm">
            Loading...
          </Text>
        ) : current.isError ? (
          <FormError message={current.error.message} />
        ) : (
          <>
            <FormError message={save.error?.message ?? null} onClose={() => save.reset()} />
            {ips.length === 0 ? (
              <Text c="dimmed" size="sm">
                No authorised IPs yet.
              </Text>
            ) : (
              <Stack gap={0} aria-label="Authorised IPs">
                {ips.map((ip) => (
                  <Group
                    key={ip}
                    justify="space-between"
                    wrap="nowrap"
                    py={6}
                    style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
                  >
                    <Code style={{ wordBreak: 'break-all' }}>{ip}</Code>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${ip}`}
                      disabled={save.isPending}
                      onClick={() => saveList(ips.filter((other) => other !== ip))}
                    >
                      Remove
                    </Button>
                  </Group>
                ))}
              </Stack>
            )}
            <form onSubmit={add} noValidate>
              <Group align="flex-end" gap="xs" wrap="wrap">
                <TextInput
                  label="Add an IP"
                  placeholder="203.0.113.7"
                  {...form.getInputProps('ip')}
                  disabled={full}
                  style={{ flex: '1 1 220px' }}
                />
                <Button
                  type="submit"
                  leftSection={<IconPlus size={16} aria-hidden />}
                  disabled={full || typed.trim() === ''}
                  loading={save.isPending}
                >
                  Add
                </Button>
              </Group>
            </form>
            {suggestion && !ips.includes(suggestion) && !full && (
              <Group gap="xs">
                <Text size="sm">
                  You are connecting from <Code>{suggestion}</Code>.
                </Text>
                <Button
                  size="xs"
                  variant="light"
                  disabled={save.isPending}
                  onClick={() => saveList([...ips, suggestion])}
                >
                  Add my current IP
                </Button>
              </Group>
            )}
            <Switch
              label="Only from these IPs"
              description="Refuse your proxy username and password from any other address, so a leaked line is useless elsewhere."
              checked={only}
              disabled={ips.length === 0 || save.isPending}
              onChange={(event) => saveList(ips, event.currentTarget.checked)}
            />
          </>
        )}
      </Stack>
    </Card>
  );
}

import {
  Button,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import {
  COUNTRY_OPTIONS,
  DEFAULT_COUNTRY,
  DEFAULT_PROXY_FORMAT,
  formatEndpoint,
  GENERATOR_COUNT_DEFAULT,
  GENERATOR_COUNT_MAX,
  GENERATOR_COUNT_MIN,
  generateResidentialList,
  isoDate,
  isProxyFormat,
  type OrderUsage,
  PROXY_FORMATS,
  type ProxyFormat,
  proxyListUrl,
  type ResidentialProxyType,
} from '@storefront/contract';
import { IconCheck, IconCopy, IconDownload, IconPlugConnected, IconWand } from '@tabler/icons-react';
import { useState } from 'react';
import { CopyButton } from '../../../components/copy-button.tsx';
import { LIST_IN_MAIN } from '../../../components/list-in-main.ts';
import { site } from '../../../config/site.ts';
import { downloadText } from '../../../lib/download.ts';
import { shopOrigin } from '../../../lib/page-origin.ts';
import { useConnectionTest } from '../api/proxies-api.ts';
import { useProxyUserPassword, useProxyUsers } from '../api/proxy-users-api.ts';
import { viewerRows } from '../proxies-model.ts';
import { ConnectionTestResult } from './connection-test-result.tsx';
import { ListLink } from './list-link.tsx';

const MAIN_USER = 'main';

const countries = COUNTRY_OPTIONS.map((country) => ({ value: country.id, label: `${country.name} (${country.id})` }));

/**
 * The list generator (spec section 5): count, dynamic or static, country; a new session id on every line. The lines are
 * written in any of the four formats, socks5:// included: the gateway speaks HTTP and SOCKS5 on the same port. When the
 * shop has a test address, 'Test connection' tries a line with these settings through the gateway.
 */
export function ResidentialGenerator({ account }: { account: OrderUsage }) {
  const origin = shopOrigin();
  const [count, setCount] = useState<number>(GENERATOR_COUNT_DEFAULT);
  const [type, setType] = useState<ResidentialProxyType>('dynamic');
  const [country, setCountry] = useState(DEFAULT_COUNTRY);
  const [format, setFormat] = useState<ProxyFormat>(DEFAULT_PROXY_FORMAT);
  const [lines, setLines] = useState<string[]>([]);
  const text = lines.map((line) => formatEndpoint(line, format)).join('\n');
  const connectionTest = useConnectionTest();
  // Lines for the main user (the account's own credentials) or one of its proxy users, whose password is asked for.
  const [user, setUser] = useState(MAIN_USER);
  const proxyUsers = useProxyUsers(true).data?.proxyUsers ?? [];
  const proxyUser = proxyUsers.find((candidate) => candidate.id === user);
  const proxyPassword = useProxyUserPassword(proxyUser?.id ?? null);
  const credentials = proxyUser
    ? proxyPassword.data && {
        endpoint: account.endpoint,
        username: proxyUser.username,
        password: proxyPassword.data.password,
      }
    : account;
  const users = [
    { value: MAIN_USER, label: `Main user (${account.username})` },
    ...proxyUsers.map((candidate) => ({ value: candidate.id, label: candidate.name })),
  ];

  return (
    <Stack gap="sm">
      <Title order={2} size="h5">
        Proxy list generator
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
        <Select
          label="User"
          data={users}
          value={proxyUser ? user : MAIN_USER}
          onChange={(value) => {
            setUser(value ?? MAIN_USER);
            setLines([]);
          }}
          searchable
          allowDeselect={false}
          maxDropdownHeight={280}
          comboboxProps={LIST_IN_MAIN}
        />
        <NumberInput
          label="Number of proxies"
          min={GENERATOR_COUNT_MIN}
          max={GENERATOR_COUNT_MAX}
          clampBehavior="blur"
          allowDecimal={false}
          allowNegative={false}
          value={count}
          onChange={(value) => setCount(typeof value === 'number' ? value : GENERATOR_COUNT_MIN)}
          description={`${GENERATOR_COUNT_MIN} to ${GENERATOR_COUNT_MAX.toLocaleString('en-US')}`}
        />
        <Stack gap={4}>
          <span id="proxy-type-label" style={{ fontSize: 'var(--mantine-font-size-sm)', fontWeight: 500 }}>
            Proxy type
          </span>
          <SegmentedControl
            aria-labelledby="proxy-type-label"
            value={type}
            onChange={(value) => setType(value === 'static' ? 'static' : 'dynamic')}
            data={[
              { value: 'dynamic', label: 'Dynamic' },
              { value: 'static', label: 'Static' },
            ]}
          />
        </Stack>
        <Select
          label="Country"
          data={countries}
          value={country}
          onChange={(value) => setCountry(value ?? DEFAULT_COUNTRY)}
          searchable
          allowDeselect={false}
          maxDropdownHeight={280}
          comboboxProps={LIST_IN_MAIN}
        />
        <Select
          label="Line format"
          data={Object.keys(PROXY_FORMATS)}
          value={format}
          onChange={(value) => setFormat(isProxyFormat(value) ? value : DEFAULT_PROXY_FORMAT)}
          allowDeselect={false}
          comboboxProps={LIST_IN_MAIN}
        />
      </SimpleGrid>
      <Group gap="xs">
        <Button
          leftSection={<IconWand size={16} aria-hidden />}
          disabled={!credentials}
          loading={proxyUser !== undefined && proxyPassword.isPending}
          onClick={() => credentials && setLines(generateResidentialList(credentials, { count, type, country }))}
        >
          Generate
        </Button>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              disabled={lines.length === 0}
              onClick={copy}
              leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          disabled={lines.length === 0}
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => downloadText(`residential-proxies-${country.toLowerCase()}-${isoDate()}.txt`, text)}
        >
          Download
        </Button>
        {site.connectionTest && !proxyUser && (
          <Button
            variant="default"
            loading={connectionTest.isPending}
            leftSection={<IconPlugConnected size={16} aria-hidden />}
            onClick={() => connectionTest.mutate({ country, type })}
          >
            Test connection
          </Button>
        )}
      </Group>
      <ConnectionTestResult result={connectionTest.data} error={connectionTest.error?.message} />
      {proxyPassword.isError && (
        <Text size="sm" c="red">
          {proxyPassword.error.message}
        </Text>
      )}
      {proxyUser && (
        <Text size="xs" c="dimmed">
          Lines for {proxyUser.name}: its own username and password, within its allowance. The connection test uses the
          main user.
        </Text>
      )}
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          The same list by link
        </Text>
        <Text size="xs" c="dimmed">
          A tool that loads this link gets {count.toLocaleString('en-US')} new lines with these settings at every load.
        </Text>
        <ListLink
          url={proxyListUrl(origin, {
            product: 'residential_proxies',
            format: format === DEFAULT_PROXY_FORMAT ? undefined : format,
            country,
            type,
            count: Math.min(GENERATOR_COUNT_MAX, Math.max(GENERATOR_COUNT_MIN, count)),
            user: proxyUser?.name,
          })}
        />
      </Stack>
      {lines.length > 0 && (
        <Textarea
          label={`Generated proxies (${lines.length.toLocaleString('en-US')})`}
          readOnly
          value={text}
          rows={viewerRows(lines.length)}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        />
      )}
    </Stack>
  );
}

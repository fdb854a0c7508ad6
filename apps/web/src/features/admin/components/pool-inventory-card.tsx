import { Badge, Button, Card, Group, SimpleGrid, Stack, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { adminMessages, BURNT_IPS_PAGE_SIZE, type IpPool, isoDate, parseUploadLines } from '@storefront/contract';
import { IconCopy, IconDownload, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { announce } from '../../../lib/announce.tsx';
import { showToast } from '../../../lib/toasts.ts';
import { burntIpsAddress, fetchBurntIps, poolName, useIpStock, useUploadIps } from '../api/inventory-api.ts';
import { PositionPager, usePositions } from './position-pager.tsx';
import { Reserved } from './reserved.tsx';
import { Figure } from './residential-inventory-card.tsx';
import { HealthBadge, UsageBar } from './usage-health.tsx';

const NBSP = '\u00a0';
/**
 * The burnt-IP list's height in rows, the same in the placeholder and the card (a longer list scrolls inside). Fixed,
 * not Mantine's autosize: each autosized box measures itself as it mounts, a layout of the whole console each.
 */
const BURNT_ROWS = 4;

/**
 * Copy All: every burnt IP, fetched as the clipboard is written. The list goes to the clipboard as a promise, so the
 * click's permission to write holds while a long list arrives (Safari refuses a write after an await).
 */
function useCopyAll(pool: IpPool) {
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const copy = () => {
    setError(null);
    const text = fetchBurntIps(pool).then((list) => new Blob([list], { type: 'text/plain' }));
    navigator.clipboard.write([new ClipboardItem({ 'text/plain': text })]).then(
      () => {
        setCopied(true);
        announce('Copied');
        setTimeout(() => setCopied(false), 1000);
      },
      (reason: unknown) => setError(reason instanceof Error ? reason.message : 'The burnt IPs could not be copied.'),
    );
  };
  return { copied, error, copy };
}

/** Where the usage bar, the figures, the burnt IP list and its buttons go, the same size, while the stock loads. */
function StockPlaceholder() {
  return (
    <>
      <Reserved>
        <UsageBar percent={0} label={NBSP} />
      </Reserved>
      <Reserved>
        <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs">
          {[0, 1, 2, 3].map((key) => (
            <Figure key={key} label={NBSP} value={NBSP} />
          ))}
        </SimpleGrid>
      </Reserved>
      <Reserved>
        <Textarea
          label="Burnt IPs (0)"
          description="IPs of ended orders, waiting for their subnet to be swapped."
          readOnly
          rows={BURNT_ROWS}
          tabIndex={-1}
        />
      </Reserved>
      <Reserved>
        <Group gap="xs">
          <Button variant="default" size="xs" tabIndex={-1}>
            {NBSP}
          </Button>
        </Group>
      </Reserved>
    </>
  );
}

/**
 * The PK1 Proxy Inventory card (spec section 2 'Inventory'), and the same for Elite ISP: the IP usage bar, the counts, the
 * read-only burnt IP list with Copy All and a download, and the Upload IPs area.
 */
export function PoolInventoryCard({ pool }: { pool: IpPool }) {
  const positions = usePositions();
  const stock = useIpStock(pool, positions.current);
  const upload = useUploadIps(pool);
  const copyAll = useCopyAll(pool);
  const form = useForm({
    initialValues: { lines: '' },
    // A problem stays said until Upload IPs is pressed again.
    clearInputErrorOnChange: false,
    validate: {
      lines: (text) => {
        const parsed = parseUploadLines(text.split('\n'));
        return 'error' in parsed ? parsed.error : null;
      },
    },
  });
  const data = stock.data;
  const burnt = (data?.recycles ?? []).map((entry) => entry.ip).join('\n');
  const name = poolName(pool);

  const submit = form.onSubmit(({ lines }) =>
    upload.mutate(
      lines.split('\n').filter((line) => line.trim() !== ''),
      {
        onSuccess: (answer) => {
          showToast({ color: 'green', title: 'IPs uploaded', message: answer.message });
          form.reset();
        },
        onError: (error) => showToast({ color: 'red', title: adminMessages.uploadFailedToast, message: error.message }),
      },
    ),
  );

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            {name} Proxy Inventory
          </Title>
          {data && <HealthBadge percent={data.usagePercentage} />}
          {/* The health badge's room while the stock loads: the heading wraps as it will with the badge. */}
          {stock.isPending && (
            <Reserved inline>
              <Badge variant="light">Healthy</Badge>
            </Reserved>
          )}
        </Group>
        <FormError message={stock.error?.message ?? null} />
        {stock.isPending && <StockPlaceholder />}
        {data && (
          <>
            <UsageBar percent={data.usagePercentage} label="IP usage (sold or burnt)" />
            <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs">
              <Figure label="Total" value={data.totalIps.toLocaleString('en-US')} />
              <Figure label="Sold" value={data.soldIps.toLocaleString('en-US')} />
              <Figure label="Available" value={data.availableIps.toLocaleString('en-US')} />
              <Figure label="Burnt" value={data.burntIps.toLocaleString('en-US')} />
            </SimpleGrid>
            <Textarea
              label={`Burnt IPs (${data.burntIps.toLocaleString('en-US')})`}
              description={
                data.burntIps > data.recycles.length
                  ? `IPs of ended orders, waiting for their subnet to be swapped: ${BURNT_IPS_PAGE_SIZE} a page; Copy All and Download take them all.`
                  : 'IPs of ended orders, waiting for their subnet to be swapped.'
              }
              value={burnt}
              readOnly
              rows={BURNT_ROWS}
              placeholder="No burnt IPs"
            />
            <PositionPager
              positions={positions}
              next={data.recyclesNext}
              waiting={stock.isPlaceholderData}
              labels={{ back: 'Previous IPs', forward: 'Next IPs', last: 'the last' }}
            />
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                leftSection={<IconCopy size={14} aria-hidden />}
                onClick={copyAll.copy}
                disabled={burnt === ''}
              >
                {copyAll.copied ? 'Copied' : 'Copy All'}
              </Button>
              {/* A link only when there is a list to download: a disabled link is not disabled to assistive technology. */}
              {burnt === '' ? (
                <Button variant="default" size="xs" leftSection={<IconDownload size={14} aria-hidden />} disabled>
                  Download
                </Button>
              ) : (
                <Button
                  variant="default"
                  size="xs"
                  component="a"
                  href={burntIpsAddress(pool)}
                  download={`burnt-ips-${isoDate()}.txt`}
                  leftSection={<IconDownload size={14} aria-hidden />}
                >
                  Download
                </Button>
              )}
            </Group>
            <FormError message={copyAll.error} />
          </>
        )}
        <Textarea
          label="Upload IPs"
          description="One per line: IP:PORT:USERNAME:PASSWORD. Waiting orders are delivered at once, oldest first."
          placeholder="203.0.113.10:8000:user:pass"
          {...form.getInputProps('lines')}
          rows={5}
          resize="vertical"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Group>
          <Button
            leftSection={<IconUpload size={16} aria-hidden />}
            onClick={() => submit()}
            loading={upload.isPending}
          >
            Upload IPs
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

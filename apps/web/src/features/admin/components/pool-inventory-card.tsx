import { Badge, Button, Card, Group, SimpleGrid, Stack, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { adminMessages, type IpPool, isoDate, parseUploadLines } from '@storefront/contract';
import { IconCopy, IconDownload, IconUpload } from '@tabler/icons-react';
import { CopyButton } from '../../../components/copy-button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { downloadText } from '../../../lib/download.ts';
import { poolName, useIpStock, useUploadIps } from '../api/inventory-api.ts';
import { Reserved } from './reserved.tsx';
import { Figure } from './residential-inventory-card.tsx';
import { HealthBadge, UsageBar } from './usage-health.tsx';

const NBSP = '\u00a0';
/**
 * The burnt-IP list's height in rows, the same in the placeholder and the card (a longer list scrolls inside). Fixed,
 * not Mantine's autosize: each autosized box measures itself as it mounts, a layout of the whole console each.
 */
const BURNT_ROWS = 4;

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
  const stock = useIpStock(pool);
  const upload = useUploadIps(pool);
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
          notifications.show({ color: 'green', title: 'IPs uploaded', message: answer.message });
          form.reset();
        },
        onError: (error) =>
          notifications.show({ color: 'red', title: adminMessages.uploadFailedToast, message: error.message }),
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
              label={`Burnt IPs (${data.burntIps})`}
              description="IPs of ended orders, waiting for their subnet to be swapped."
              value={burnt}
              readOnly
              rows={BURNT_ROWS}
              placeholder="No burnt IPs"
            />
            <Group gap="xs">
              <CopyButton value={burnt}>
                {({ copied, copy }) => (
                  <Button
                    variant="default"
                    size="xs"
                    leftSection={<IconCopy size={14} aria-hidden />}
                    onClick={copy}
                    disabled={burnt === ''}
                  >
                    {copied ? 'Copied' : 'Copy All'}
                  </Button>
                )}
              </CopyButton>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconDownload size={14} aria-hidden />}
                disabled={burnt === ''}
                onClick={() => downloadText(`burnt-ips-${isoDate()}.txt`, burnt)}
              >
                Download
              </Button>
            </Group>
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

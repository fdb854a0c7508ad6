import {
  Badge,
  Button,
  Card,
  Group,
  Loader,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { type IpPool, type Subnet, type SubnetIp, subnetEndpointsFileName } from '@storefront/contract';
import { IconArrowsExchange, IconChevronDown, IconDownload, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { downloadText } from '../../../lib/download.ts';
import { poolName, useSubnetIps, useSubnets } from '../api/inventory-api.ts';
import { Figure } from './residential-inventory-card.tsx';
import classes from './subnet-inventory.module.css';
import { SwapDialog } from './swap-dialog.tsx';

function ipStatus(ip: SubnetIp) {
  if (ip.needRotated)
    return (
      <Badge color="red" variant="light">
        Burnt
      </Badge>
    );
  if (ip.isAssigned)
    return (
      <Badge color="blue" variant="light">
        Assigned
      </Badge>
    );
  return (
    <Badge color="green" variant="light">
      Available
    </Badge>
  );
}

/** One subnet's card: its counts, its IPs (loaded when the card opens), Swap IPs and Download Endpoints. */
function SubnetCard({
  pool,
  subnet,
  open,
  onToggle,
  onSwap,
}: {
  pool: IpPool;
  subnet: Subnet;
  open: boolean;
  onToggle: () => void;
  onSwap: () => void;
}) {
  const ips = useSubnetIps(pool, subnet.subnet, open);
  const download = async () => {
    const list = ips.data ?? (await ips.refetch()).data ?? [];
    downloadText(subnetEndpointsFileName(subnet.subnet), list.map((ip) => ip.endpoint).join('\n'));
  };
  const bodyId = `subnet-${pool}-${subnet.subnet.replace(/[./]/g, '-')}`;
  return (
    <div className={`${classes.card} ${open ? classes.open : ''}`}>
      <button type="button" className={classes.header} aria-expanded={open} aria-controls={bodyId} onClick={onToggle}>
        <span className={classes.subnet}>{subnet.subnet}</span>
        <span className={classes.counts}>
          <span className={classes.count}>{subnet.totalIps} IPs</span>
          <span className={classes.count}>{subnet.assignedIps} assigned</span>
          {subnet.burntIps > 0 && <span className={`${classes.count} ${classes.burnt}`}>{subnet.burntIps} burnt</span>}
          <IconChevronDown size={16} className={classes.chevron} aria-hidden />
        </span>
      </button>
      {open && (
        <div id={bodyId} className={classes.body}>
          <Stack gap="sm">
            <Group gap="xs">
              <Button size="xs" leftSection={<IconArrowsExchange size={14} aria-hidden />} onClick={onSwap}>
                Swap IPs
              </Button>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconDownload size={14} aria-hidden />}
                onClick={() => void download()}
              >
                Download Endpoints
              </Button>
            </Group>
            {ips.isPending && <Loader size="sm" aria-label={`Loading the IPs of ${subnet.subnet}`} />}
            <FormError message={ips.error?.message ?? null} />
            {ips.data && (
              // The list scrolls inside its card: the scroll area takes the focus, so arrow keys and Page Down scroll it.
              <Table.ScrollContainer
                minWidth={420}
                maxHeight={360}
                scrollAreaProps={{
                  type: 'auto',
                  viewportProps: { tabIndex: 0, role: 'region', 'aria-label': `IPs of ${subnet.subnet}` },
                }}
              >
                <Table striped withTableBorder stickyHeader>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Endpoint</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>Order</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {ips.data.map((ip) => (
                      <Table.Tr key={ip.endpoint}>
                        <Table.Td ff="monospace" fz="xs">
                          {ip.endpoint}
                        </Table.Td>
                        <Table.Td>{ipStatus(ip)}</Table.Td>
                        <Table.Td ff="monospace" fz="xs">
                          {ip.assignedToEntityId ? ip.assignedToEntityId.slice(0, 8) : '—'}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        </div>
      )}
    </div>
  );
}

/** The PK1 IP Inventory tab (spec section 2), and the Elite ISP pool beside it: totals and one card per /24 subnet. */
export function SubnetInventory() {
  const [pool, setPool] = useState<IpPool>('pk1');
  const subnets = useSubnets(pool);
  const [open, setOpen] = useState<string[]>([]);
  const [swapping, setSwapping] = useState<Subnet | null>(null);
  const data = subnets.data;
  const assigned = data?.subnets.reduce((sum, subnet) => sum + subnet.assignedIps, 0) ?? 0;
  const burnt = data?.subnets.reduce((sum, subnet) => sum + subnet.burntIps, 0) ?? 0;

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <SegmentedControl
          value={pool}
          onChange={(value) => {
            setPool(value as IpPool);
            setOpen([]);
          }}
          data={[
            { value: 'pk1', label: 'PK1 ISP' },
            { value: 'isp', label: 'Elite ISP' },
          ]}
          aria-label="Pool"
        />
        <Button
          variant="default"
          size="xs"
          leftSection={<IconRefresh size={14} aria-hidden />}
          loading={subnets.isFetching}
          onClick={() => void subnets.refetch()}
        >
          Refresh
        </Button>
      </Group>
      <Card withBorder padding="lg">
        <Stack gap="xs">
          <Title order={2} size="h4">
            {poolName(pool)} subnets
          </Title>
          <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs">
            <Figure label="Subnets" value={data?.totalSubnets ?? '—'} />
            <Figure label="IPs" value={data?.totalIps.toLocaleString('en-US') ?? '—'} />
            <Figure label="Assigned" value={data ? assigned.toLocaleString('en-US') : '—'} />
            <Figure label="Burnt" value={data ? burnt.toLocaleString('en-US') : '—'} />
          </SimpleGrid>
        </Stack>
      </Card>
      {subnets.isPending && <Loader size="sm" aria-label="Loading subnets" />}
      <FormError message={subnets.error?.message ?? null} />
      {data && data.subnets.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          No IPs in this pool yet. Upload some on the Inventory & Features tab.
        </Text>
      )}
      {data && data.subnets.length > 0 && (
        <Stack gap="xs">
          {data.subnets.map((subnet) => (
            <SubnetCard
              key={subnet.subnet}
              pool={pool}
              subnet={subnet}
              open={open.includes(subnet.subnet)}
              onToggle={() =>
                setOpen((list) =>
                  list.includes(subnet.subnet)
                    ? list.filter((entry) => entry !== subnet.subnet)
                    : [...list, subnet.subnet],
                )
              }
              onSwap={() => setSwapping(subnet)}
            />
          ))}
        </Stack>
      )}
      <SwapDialog pool={pool} subnet={swapping} onClose={() => setSwapping(null)} />
    </Stack>
  );
}

import {
  Badge,
  Button,
  Card,
  Group,
  Loader,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type IpPool,
  SUBNET_STATES,
  type Subnet,
  type SubnetFilters,
  type SubnetIp,
  type SubnetState,
  subnetEndpointsFileName,
} from '@storefront/contract';
import { IconArrowsExchange, IconChevronDown, IconDownload, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { LIST_IN_MAIN } from '../../../components/list-in-main.ts';
import { downloadText } from '../../../lib/download.ts';
import { poolName, useAllSubnetIps, useSubnetIps, useSubnets } from '../api/inventory-api.ts';
import { FilterButtons } from './filter-buttons.tsx';
import { PositionPager, usePositions } from './position-pager.tsx';
import { ReplacementsCard } from './replacements-card.tsx';
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
  filters,
  open,
  onToggle,
  onSwap,
}: {
  pool: IpPool;
  subnet: Subnet;
  filters: SubnetFilters;
  open: boolean;
  onToggle: () => void;
  onSwap: () => void;
}) {
  const ips = useSubnetIps(pool, subnet.subnet, filters, open);
  const allIps = useAllSubnetIps(pool);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const filtered = filters.state !== undefined || filters.customer !== undefined;
  const download = async () => {
    setDownloadError(null);
    try {
      const list = await allIps(subnet.subnet);
      downloadText(subnetEndpointsFileName(subnet.subnet), list.map((ip) => ip.endpoint).join('\n'));
    } catch (error) {
      setDownloadError(error instanceof Error ? error.message : String(error));
    }
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
            <FormError message={ips.error?.message ?? downloadError} />
            {filtered && ips.data && (
              <Text size="xs" c="dimmed">
                {ips.data.length} of {subnet.totalIps} IPs match the filters; Download Endpoints writes them all.
              </Text>
            )}
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

const NO_FILTERS = { search: '', state: null as string | null, customer: '' };
type FilterForm = typeof NO_FILTERS;

const STATE_LABELS: Record<SubnetState, string> = { free: 'Available', assigned: 'Assigned', burnt: 'Burnt' };

/** What the filter form asks for: only what is set. */
function filtersOf(form: FilterForm): SubnetFilters {
  const search = form.search.trim();
  const customer = form.customer.trim();
  return {
    ...(search && { search }),
    ...(form.state && { state: form.state as SubnetState }),
    ...(customer && { customer }),
  };
}

function SubnetFilterForm({ onFilter }: { onFilter: (filters: SubnetFilters) => void }) {
  const form = useForm({ initialValues: NO_FILTERS });
  return (
    <form onSubmit={form.onSubmit((values) => onFilter(filtersOf(values)))}>
      <Group align="flex-end" gap="sm">
        <TextInput
          label="Subnet or IP"
          placeholder="203.0.113 or 203.0.113.7"
          {...form.getInputProps('search')}
          w={{ base: '100%', xs: 240 }}
        />
        <Select
          label="State"
          placeholder="Any state"
          data={SUBNET_STATES.map((state) => ({ value: state, label: STATE_LABELS[state] }))}
          clearable
          comboboxProps={LIST_IN_MAIN}
          {...form.getInputProps('state')}
          w={{ base: '100%', xs: 150 }}
        />
        <TextInput
          label="Customer"
          placeholder="E-mail or order id"
          {...form.getInputProps('customer')}
          w={{ base: '100%', xs: 240 }}
        />
        <FilterButtons
          onClear={() => {
            form.reset();
            onFilter({});
          }}
        />
      </Group>
    </form>
  );
}

/**
 * The PK1 IP Inventory tab (spec section 2), and the Elite ISP pool beside it: the pool's totals and one card per /24
 * subnet, a page at a time, filtered on the server.
 */
export function SubnetInventory() {
  const [pool, setPool] = useState<IpPool>('pk1');
  const [filters, setFilters] = useState<SubnetFilters>({});
  const positions = usePositions();
  const subnets = useSubnets(pool, filters, positions.current);
  const [open, setOpen] = useState<string[]>([]);
  const [swapping, setSwapping] = useState<Subnet | null>(null);
  const data = subnets.data;
  const filtered = Object.keys(filters).length > 0;
  const pager = (
    <PositionPager
      positions={positions}
      next={data?.next}
      waiting={subnets.isPlaceholderData}
      labels={{ back: 'Previous subnets', forward: 'Next subnets', last: 'the last' }}
    />
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <SegmentedControl
          value={pool}
          onChange={(value) => {
            setPool(value as IpPool);
            setOpen([]);
            positions.reset();
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
            <Figure label="Subnets" value={data?.totalSubnets.toLocaleString('en-US') ?? '—'} />
            <Figure label="IPs" value={data?.totalIps.toLocaleString('en-US') ?? '—'} />
            <Figure label="Assigned" value={data?.assignedIps.toLocaleString('en-US') ?? '—'} />
            <Figure label="Burnt" value={data?.burntIps.toLocaleString('en-US') ?? '—'} />
          </SimpleGrid>
        </Stack>
      </Card>
      <ReplacementsCard key={pool} pool={pool} />
      <SubnetFilterForm
        onFilter={(next) => {
          setFilters(next);
          setOpen([]);
          positions.reset();
        }}
      />
      {subnets.isPending && <Loader size="sm" aria-label="Loading subnets" />}
      <FormError message={subnets.error?.message ?? null} />
      {data && data.subnets.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          {filtered
            ? 'No subnets match these filters.'
            : 'No IPs in this pool yet. Upload some on the Inventory & Features tab.'}
        </Text>
      )}
      {data && data.subnets.length > 0 && (
        <Stack gap="xs">
          {pager}
          {data.subnets.map((subnet) => (
            <SubnetCard
              key={subnet.subnet}
              pool={pool}
              subnet={subnet}
              filters={filters}
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
          {pager}
        </Stack>
      )}
      <SwapDialog pool={pool} subnet={swapping} onClose={() => setSwapping(null)} />
    </Stack>
  );
}

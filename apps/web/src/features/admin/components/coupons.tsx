import { ActionIcon, Badge, Button, Group, Loader, Modal, Stack, Switch, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type AdminCoupon, couponMessages, formatMoney } from '@storefront/contract';
import { IconChevronDown, IconChevronRight, IconPlus, IconTrash } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { useAdminCoupons, useCouponRedemptions, useDeleteCoupon, useToggleCoupon } from '../api/admin-api.ts';
import { CouponForm } from './coupon-form.tsx';

const discountOf = (coupon: AdminCoupon) =>
  coupon.percentOff !== null
    ? `${coupon.percentOff}% off`
    : `${formatMoney(coupon.amountOff ?? 0, coupon.currency)} off`;
const durationOf = (coupon: AdminCoupon) =>
  coupon.duration === 'repeating' ? `${coupon.durationInMonths} months` : coupon.duration;
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** The Active Coupons tab (spec section 2): Add Coupon, the table with expandable promo-code rows, toggle and delete. */
export function ActiveCoupons() {
  const coupons = useAdminCoupons();
  const toggle = useToggleCoupon();
  const remove = useDeleteCoupon();
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<string[]>([]);
  const [deleting, setDeleting] = useState<AdminCoupon | null>(null);
  const list = coupons.data?.coupons ?? [];

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {list.length} coupon{list.length === 1 ? '' : 's'}
        </Text>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          Add Coupon
        </Button>
      </Group>
      {coupons.isPending && <Loader size="sm" aria-label="Loading coupons" />}
      <FormError message={coupons.error?.message ?? null} />
      {coupons.data && list.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          No coupons yet.
        </Text>
      )}
      {list.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table withTableBorder verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40} />
                <Table.Th>Name</Table.Th>
                <Table.Th>Discount</Table.Th>
                <Table.Th>Duration</Table.Th>
                <Table.Th>Products</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((coupon) => {
                const expanded = open.includes(coupon.id);
                return (
                  <Fragment key={coupon.id}>
                    <Table.Tr>
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          aria-label={`${expanded ? 'Hide' : 'Show'} the promo codes of ${coupon.name}`}
                          aria-expanded={expanded}
                          onClick={() =>
                            setOpen((ids) => (expanded ? ids.filter((id) => id !== coupon.id) : [...ids, coupon.id]))
                          }
                        >
                          {expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                        </ActionIcon>
                      </Table.Td>
                      <Table.Td fw={600}>{coupon.name}</Table.Td>
                      <Table.Td>{discountOf(coupon)}</Table.Td>
                      <Table.Td>{durationOf(coupon)}</Table.Td>
                      <Table.Td>{coupon.products.map((product) => product.name).join(', ')}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {day.format(new Date(coupon.created * 1000))}
                      </Table.Td>
                      <Table.Td>
                        <ActionIcon
                          color="red"
                          variant="subtle"
                          aria-label={`Delete ${coupon.name}`}
                          onClick={() => setDeleting(coupon)}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                    {expanded &&
                      coupon.promoCodes.map((promo) => (
                        <Table.Tr key={promo.id} bg="var(--mantine-color-default-hover)">
                          <Table.Td />
                          <Table.Td ff="monospace">{promo.code}</Table.Td>
                          <Table.Td colSpan={2}>
                            Redeemed {promo.timesRedeemed} / {promo.maxRedemptions ?? 'Unlimited'}
                          </Table.Td>
                          <Table.Td>
                            {promo.expiresAt ? `Expires ${day.format(new Date(promo.expiresAt))}` : 'No expiry'}
                          </Table.Td>
                          <Table.Td colSpan={2}>
                            <Switch
                              label={promo.active ? 'Active' : 'Inactive'}
                              checked={promo.active}
                              disabled={toggle.isPending}
                              onChange={(event) =>
                                toggle.mutate(
                                  { promoCodeId: promo.id, active: event.currentTarget.checked },
                                  {
                                    onError: (error) =>
                                      notifications.show({
                                        color: 'red',
                                        title: couponMessages.toggleFailed,
                                        message: error.message,
                                      }),
                                  },
                                )
                              }
                            />
                          </Table.Td>
                        </Table.Tr>
                      ))}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={adding} onClose={() => setAdding(false)} title="Add Coupon" size="lg">
        {adding && <CouponForm onDone={() => setAdding(false)} />}
      </Modal>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete coupon?">
        {deleting && (
          <Stack gap="md">
            <Text size="sm">
              {deleting.name} and its promo codes ({deleting.promoCodes.map((promo) => promo.code).join(', ')}) will
              stop working and their redemption figures are removed. Orders that used them keep their prices.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                Keep Coupon
              </Button>
              <Button
                color="red"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(deleting.id, {
                    onSuccess: (answer) => {
                      notifications.show({ color: 'green', title: 'Coupon deleted', message: answer.message });
                      setDeleting(null);
                    },
                    onError: (error) =>
                      notifications.show({ color: 'red', title: couponMessages.deleteFailed, message: error.message }),
                  })
                }
              >
                Delete Coupon
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

/** The Coupon Redemptions tab: codes by use, expandable to per-e-mail counts. */
export function CouponRedemptions() {
  const redemptions = useCouponRedemptions();
  const [open, setOpen] = useState<string[]>([]);
  const data = redemptions.data;
  return (
    <Stack gap="md">
      {redemptions.isPending && <Loader size="sm" aria-label="Loading redemptions" />}
      <FormError message={redemptions.error?.message ?? null} />
      {data && (
        <Text size="sm" c="dimmed">
          {data.totalCoupons} coupon{data.totalCoupons === 1 ? '' : 's'} in all; {data.coupons.length} code
          {data.coupons.length === 1 ? '' : 's'} used in paid checkouts.
        </Text>
      )}
      {data && data.coupons.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          No code has been used in a paid checkout yet.
        </Text>
      )}
      {data && data.coupons.length > 0 && (
        <Table.ScrollContainer minWidth={420}>
          <Table withTableBorder verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40} />
                <Table.Th>Code</Table.Th>
                <Table.Th>Redemptions</Table.Th>
                <Table.Th>Customers</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.coupons.map((entry) => {
                const expanded = open.includes(entry.couponCode);
                return (
                  <Fragment key={entry.couponCode}>
                    <Table.Tr>
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          aria-label={`${expanded ? 'Hide' : 'Show'} who used ${entry.couponCode}`}
                          aria-expanded={expanded}
                          onClick={() =>
                            setOpen((codes) =>
                              expanded
                                ? codes.filter((code) => code !== entry.couponCode)
                                : [...codes, entry.couponCode],
                            )
                          }
                        >
                          {expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                        </ActionIcon>
                      </Table.Td>
                      <Table.Td ff="monospace" fw={600}>
                        {entry.couponCode}
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light">{entry.totalRedemptions}</Badge>
                      </Table.Td>
                      <Table.Td>{entry.uniqueUsers}</Table.Td>
                    </Table.Tr>
                    {expanded &&
                      entry.redemptionsByEmail.map((row) => (
                        <Table.Tr key={row.email} bg="var(--mantine-color-default-hover)">
                          <Table.Td />
                          <Table.Td colSpan={2}>{row.email}</Table.Td>
                          <Table.Td>{row.count}</Table.Td>
                        </Table.Tr>
                      ))}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

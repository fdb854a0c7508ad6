import { ActionIcon, Badge, Button, Group, Loader, Stack, Switch, Table, Text, VisuallyHidden } from '@mantine/core';
import { type AdminCoupon, counted, couponMessages, formatDate, formatMoney, plural } from '@storefront/contract';
import { IconChevronDown, IconChevronRight, IconDownload, IconPlus, IconTrash } from '@tabler/icons-react';
import { Fragment, lazy, Suspense, useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { LazyModal } from '../../../components/lazy-dialog.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { showToast } from '../../../lib/toasts.ts';
import { withSchemas } from '../../../lib/zod-without-eval.ts';
import {
  useAdminCoupons,
  useCouponRedemptions,
  useDeleteCoupon,
  useRedemptionEmails,
  useToggleCoupon,
} from '../api/coupons-api.ts';
import { PositionPager, usePositions } from './position-pager.tsx';

/**
 * The form checks with the contract's schema (createCouponRequestSchema), so it brings zod and the console's schemas:
 * they load when the dialog first opens, not with the console.
 */
const CouponForm = lazy(async () => ({
  default: (await withSchemas(() => import('./coupon-form.tsx'))).CouponForm,
}));

type Discount = Pick<AdminCoupon, 'percentOff' | 'amountOff' | 'currency'>;
const discountOf = (coupon: Discount) =>
  coupon.percentOff !== null
    ? `${coupon.percentOff}% off`
    : `${formatMoney(coupon.amountOff ?? 0, coupon.currency)} off`;
const durationOf = (coupon: AdminCoupon) =>
  coupon.duration === 'repeating' ? `${coupon.durationInMonths} months` : coupon.duration;

/** The Active Coupons tab (spec section 2): Add Coupon, the table with expandable promo-code rows, toggle and delete. */
export function ActiveCoupons() {
  const timeZone = useTimeZone();
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
          {counted(list.length, 'coupon', 'coupons')}
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
                <Table.Th w={40}>
                  <VisuallyHidden>Promo codes</VisuallyHidden>
                </Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Discount</Table.Th>
                <Table.Th>Duration</Table.Th>
                <Table.Th>Products</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
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
                        {formatDate(coupon.created * 1000, 'date', timeZone)}
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
                            {promo.expiresAt ? `Expires ${formatDate(promo.expiresAt, 'date', timeZone)}` : 'No expiry'}
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
                                      showToast({
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
      <LazyModal opened={adding} onClose={() => setAdding(false)} title="Add Coupon" size="lg">
        {adding && (
          <Suspense fallback={<Loader size="sm" aria-label="Loading the coupon form" />}>
            <CouponForm onDone={() => setAdding(false)} />
          </Suspense>
        )}
      </LazyModal>
      <LazyModal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete coupon?">
        {deleting && (
          <Stack gap="md">
            <DeleteWarning coupon={deleting} />
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
                      showToast({ color: 'green', title: 'Coupon deleted', message: answer.message });
                      setDeleting(null);
                    },
                    onError: (error) =>
                      showToast({ color: 'red', title: couponMessages.deleteFailed, message: error.message }),
                  })
                }
              >
                Delete Coupon
              </Button>
            </Group>
          </Stack>
        )}
      </LazyModal>
    </Stack>
  );
}

/**
 * What deleting does (docs/decisions/2026-11-25-coupon-delete.md): the codes stop working and may be given to a new
 * coupon; what was sold with them stays. Switching a code off is offered for a pause.
 */
function DeleteWarning({ coupon }: { coupon: AdminCoupon }) {
  const codes = coupon.promoCodes.map((promo) => promo.code).join(', ');
  const used = coupon.promoCodes.reduce((sum, promo) => sum + promo.timesRedeemed, 0);
  return (
    <Stack gap="xs">
      <Text size="sm">
        {coupon.name} ({codes}) stops working at once, and its code can then be given to a new coupon.
      </Text>
      <Text size="sm">
        {used === 0
          ? 'It has not been used in a paid checkout.'
          : `Its ${plural(used, 'redemption stays', `${used} redemptions stay`)} listed under Coupon Redemptions, with the code and its discount, and the orders keep their prices.`}
      </Text>
      <Text size="sm" c="dimmed">
        To stop it only for a while, switch its code off instead.
      </Text>
    </Stack>
  );
}

/** A code's customers under its row, a page at a time, with the whole list as a CSV file. */
function RedemptionEmailRows({ promoCodeId, code }: { promoCodeId: string; code: string }) {
  const emails = useRedemptionEmails(promoCodeId);
  const rows = emails.data?.pages.flatMap((page) => page.emails) ?? [];
  return (
    <>
      {rows.map((row) => (
        <Table.Tr key={row.email} bg="var(--mantine-color-default-hover)">
          <Table.Td />
          <Table.Td colSpan={3} style={{ overflowWrap: 'anywhere' }}>
            {row.email}
          </Table.Td>
          <Table.Td>{row.count}</Table.Td>
        </Table.Tr>
      ))}
      <Table.Tr bg="var(--mantine-color-default-hover)">
        <Table.Td />
        <Table.Td colSpan={4}>
          <Group gap="xs">
            {emails.isPending && <Loader size="xs" aria-label={`Loading who used ${code}`} />}
            <FormError message={emails.error?.message ?? null} />
            {emails.hasNextPage && (
              <Button
                size="xs"
                variant="default"
                loading={emails.isFetchingNextPage}
                onClick={() => emails.fetchNextPage()}
              >
                Show more
              </Button>
            )}
            <Button
              size="xs"
              variant="subtle"
              component="a"
              href={`/api/admin/coupons/redemptions/${promoCodeId}/emails.csv`}
              download
              leftSection={<IconDownload size={14} aria-hidden />}
            >
              Download {code} customers (CSV)
            </Button>
          </Group>
        </Table.Td>
      </Table.Tr>
    </>
  );
}

/**
 * The Coupon Redemptions tab: codes by use, with their discount, expandable to per-e-mail counts. A deleted coupon's
 * codes stay listed, marked; its code may belong to a newer coupon too, so rows are told apart by promo code.
 */
export function CouponRedemptions() {
  const timeZone = useTimeZone();
  const positions = usePositions();
  const redemptions = useCouponRedemptions(positions.current);
  const [open, setOpen] = useState<string[]>([]);
  const data = redemptions.data;
  return (
    <Stack gap="md">
      {redemptions.isPending && <Loader size="sm" aria-label="Loading redemptions" />}
      <FormError message={redemptions.error?.message ?? null} />
      {data && (
        <Text size="sm" c="dimmed">
          {counted(data.totalCoupons, 'coupon', 'coupons')} in the shop. The codes used in paid checkouts, most used
          first:
        </Text>
      )}
      {data && data.coupons.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          No code has been used in a paid checkout yet.
        </Text>
      )}
      {data && data.coupons.length > 0 && (
        <Table.ScrollContainer minWidth={520}>
          <Table withTableBorder verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <VisuallyHidden>Who used it</VisuallyHidden>
                </Table.Th>
                <Table.Th>Code</Table.Th>
                <Table.Th>Discount</Table.Th>
                <Table.Th>Redemptions</Table.Th>
                <Table.Th>Customers</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.coupons.map((entry) => {
                const expanded = open.includes(entry.promoCodeId);
                const deletedOn = entry.deletedAt && formatDate(entry.deletedAt, 'date', timeZone);
                return (
                  <Fragment key={entry.promoCodeId}>
                    <Table.Tr>
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          aria-label={`${expanded ? 'Hide' : 'Show'} who used ${entry.couponCode}${deletedOn ? ' (deleted coupon)' : ''}`}
                          aria-expanded={expanded}
                          onClick={() =>
                            setOpen((ids) =>
                              expanded ? ids.filter((id) => id !== entry.promoCodeId) : [...ids, entry.promoCodeId],
                            )
                          }
                        >
                          {expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                        </ActionIcon>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <Text span ff="monospace" fw={600} size="sm">
                            {entry.couponCode}
                          </Text>
                          {deletedOn && (
                            <Badge color="gray" variant="light" title={`Coupon deleted ${deletedOn}`}>
                              Deleted
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{discountOf(entry)}</Table.Td>
                      <Table.Td>
                        <Badge variant="light">{entry.totalRedemptions}</Badge>
                      </Table.Td>
                      <Table.Td>{entry.uniqueUsers}</Table.Td>
                    </Table.Tr>
                    {expanded && <RedemptionEmailRows promoCodeId={entry.promoCodeId} code={entry.couponCode} />}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <PositionPager
        positions={positions}
        next={data?.next}
        waiting={redemptions.isPlaceholderData}
        labels={{ back: 'More used', forward: 'Less used', last: 'the last' }}
      />
    </Stack>
  );
}

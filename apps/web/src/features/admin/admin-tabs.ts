import type { AdminTab } from '@storefront/contract';

/** The admin page's tabs in order, with the spec's labels (section 2 'Admin'); `?tab=` holds the value. */
export const ADMIN_TABS: readonly { value: AdminTab; label: string }[] = [
  { value: 'inventory', label: 'Inventory & Features' },
  { value: 'custom_ordering', label: 'Custom Ordering' },
  { value: 'active_coupons', label: 'Active Coupons' },
  { value: 'coupon_redemptions', label: 'Coupon Redemptions' },
  { value: 'pk1_inventory_list', label: 'PK1 IP Inventory' },
  { value: 'audit_log', label: 'Audit Log' },
];

import { formatMoney } from './money.ts';
import { counted, plural } from './plurals.ts';

/**
 * The admin page's tabs (spec section 2 'Admin') as kept in `?tab=` and named by alerts; aliases lead to the same tab.
 * Their labels are the web app's (features/admin/admin-tabs.ts).
 */
export const ADMIN_TAB_VALUES = [
  'inventory',
  'custom_ordering',
  'active_coupons',
  'coupon_redemptions',
  'pk1_inventory_list',
  'audit_log',
] as const;

export type AdminTab = (typeof ADMIN_TAB_VALUES)[number];

const TAB_ALIASES: Record<string, AdminTab> = { custom: 'custom_ordering', coupons: 'active_coupons' };

/** The tab a `?tab=` value names: its own value, an alias, or the default (inventory). */
export function adminTabOf(value: string | null | undefined): AdminTab {
  if (!value) return 'inventory';
  const aliased = TAB_ALIASES[value];
  if (aliased) return aliased;
  return ADMIN_TAB_VALUES.find((tab) => tab === value) ?? 'inventory';
}

/** The two static pools an administrator manages: PK1 (the spec's) and Elite ISP (the same calls under `isp`). */
export const IP_POOLS = { pk1: 'pk1_isp_proxies', isp: 'isp_proxies' } as const;

export type IpPool = keyof typeof IP_POOLS;

export const adminMessages = {
  fetchFeaturesFailed: 'Failed to fetch features',
  fetchResidentialFailed: 'Failed to fetch residential stocks',
  fetchPk1Failed: 'Failed to fetch PK1 stocks',
  fetchSubnetsFailed: 'Failed to fetch PK1 subnets',
  uploadFailed: 'Failed to upload PK1 IPs',
  uploadFailedToast: 'Upload Failed',
  swapFailed: 'Failed to swap subnet IPs',
  swapFailedToast: 'Swap Failed',
  toggleFailed: 'Failed to toggle feature',
  toggleFailedToast: 'Error: Failed to update feature',
  swapped: 'IPs Swapped Successfully',
  /** What a swap did, after the title 'IPs Swapped Successfully' (the API's message) or under it (the toast). */
  swapDetail: (swapped: number, subnet: string, delivered: number) =>
    `${swapped} IPs of ${subnet} have new endpoints${delivered > 0 ? `; ${counted(delivered, 'waiting order', 'waiting orders')} delivered` : ''}.`,
  emptySwap: 'Please enter at least one endpoint',
  swapCountMismatch: (n: number, m: number) => `Number of endpoints (${n}) must match the subnet's IP count (${m})`,
  unknownSubnet: 'This subnet has no IPs in this pool.',
  endpointsTaken: (endpoints: string[]) =>
    `These endpoints are already in the pool: ${endpoints.slice(0, 5).join(', ')}${endpoints.length > 5 ? ', …' : ''}`,
  duplicateEndpoints: 'The same IP:PORT appears more than once in the list.',
  unknownFeature: (name: string) => `There is no feature named "${name}".`,
  limitBelowSold: (soldMb: number) =>
    `The limit cannot be below the data already sold (${soldMb.toLocaleString('en-US')} MB).`,
} as const;

/** File name of a subnet's endpoints (spec section 2): slashes replaced by underscores, plus _endpoints.txt. */
export function subnetEndpointsFileName(subnet: string): string {
  return `${subnet.replaceAll('/', '_')}_endpoints.txt`;
}

export const AUDIT_PAGE_SIZE = 25;
export const REDEMPTIONS_PAGE_SIZE = 20;
export const REDEMPTION_EMAILS_PAGE_SIZE = 50;
export const SUBNETS_PAGE_SIZE = 50;
export const BURNT_IPS_PAGE_SIZE = 100;

/** What the IP inventory's State filter offers: free (neither assigned nor burnt), assigned, burnt. */
export const SUBNET_STATES = ['free', 'assigned', 'burnt'] as const;
export type SubnetState = (typeof SUBNET_STATES)[number];

/** The IP inventory's filters, as its query string carries them. */
export interface SubnetFilters {
  /** The start of a subnet (203.0.113), or an IP whose subnet is wanted. */
  search?: string;
  state?: SubnetState;
  /** A customer's e-mail, or an order id: subnets holding IPs assigned to them. */
  customer?: string;
}

/** Every kind of entry the audit log keeps: what its Action filter offers. */
export const AUDIT_ACTIONS = [
  'feature.toggle',
  'ips.upload',
  'subnet.swap',
  'residential.limit',
  'sandbox.clock',
  'coupon.create',
  'coupon.toggle',
  'coupon.delete',
  'custom.create',
  'custom.fulfil',
  'alert.open',
  'alert.resolve',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The audit log's filters and position, as its query string carries them. */
export interface AuditLogQuery {
  before?: string;
  action?: AuditAction;
  actor?: string;
  from?: string;
  to?: string;
  timeZone?: string;
}

/** Spec section 5 'Fulfil upload' and 'Custom order', and section 10's admin messages. */
export const customOrderMessages = {
  enterEmail: 'Please enter an email address',
  userNotFound: 'Failed to find user. Please check the email and try again.',
  userNotFoundToast: 'User Not Found',
  fetchUserFailed: 'Failed to fetch user',
  searchFirst: 'Please search for a user first',
  selectType: 'Please select a proxy type',
  quantityRange: `The quantity of a custom order is ${1} to ${1000}.`,
  createFailed: 'Submission Failed: Failed to create custom order. Please try again.',
  checkoutLinkFailed: 'Failed to create checkout link',
  emptyFulfil: 'Please enter proxies to upload',
  missingOrderOrUser: 'Missing order or user information',
  quantityMismatch: (quantity: number, received: number) =>
    `Quantity Mismatch: Expected exactly ${quantity} proxies but received ${received}. Please provide ${quantity} proxies to match the order quantity.`,
  invalidFormat: (count: number) =>
    `Invalid Proxy Format: Found ${count} invalid proxy format(s). Expected format: ip:port:username:password or ip:port`,
  orderNotFound: 'Order not found',
  noValidProxies: 'No valid proxies found',
  notPaid: 'This custom order is not paid yet: it can be fulfilled once the customer has paid.',
  alreadyFulfilled: 'This custom order has already been fulfilled.',
  proxiesTaken: (endpoints: string[]) =>
    `These proxies are already in the pool: ${endpoints.slice(0, 5).join(', ')}${endpoints.length > 5 ? ', …' : ''}`,
  fulfilFailed: 'Failed to fulfill order',
  uploadFailedToast: 'Upload Failed',
  refreshFailed: 'Failed to refresh orders',
} as const;

export const CUSTOM_ORDER_MAX = 1000;

/** The most customers a search shows to choose from. */
export const CUSTOMER_MATCHES_MAX = 20;

export interface FulfilProxy {
  ip: string;
  port: number;
  username: string;
  password: string;
}

const FULFIL_LINE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})(?::([^:\s]+):([^:\s]+))?$/;

/**
 * Spec section 5 'Fulfil upload': `ip:port` or `ip:port:username:password` per line (blank lines ignored), each octet 0 to
 * 255, port 1 to 65535, username and password non-empty; exactly as many lines as the order's quantity.
 */
export function parseFulfilLines(
  lines: readonly string[],
  quantity: number,
): { proxies: FulfilProxy[] } | { error: string } {
  const filled = lines.map((line) => line.trim()).filter((line) => line !== '');
  if (filled.length === 0) return { error: customOrderMessages.emptyFulfil };
  if (filled.length !== quantity) return { error: customOrderMessages.quantityMismatch(quantity, filled.length) };
  const proxies: FulfilProxy[] = [];
  let invalid = 0;
  for (const line of filled) {
    const match = FULFIL_LINE.exec(line);
    const octets = match ? match.slice(1, 5).map(Number) : [];
    const port = match ? Number(match[5]) : 0;
    if (!match || octets.some((octet) => octet > 255) || port < 1 || port > 65_535) {
      invalid += 1;
      continue;
    }
    proxies.push({ ip: octets.join('.'), port, username: match[6] ?? '', password: match[7] ?? '' });
  }
  if (invalid > 0) return { error: customOrderMessages.invalidFormat(invalid) };
  if (proxies.length === 0) return { error: customOrderMessages.noValidProxies };
  return { proxies };
}

/** The longest a repeating coupon lasts: ten years of monthly renewals. */
export const COUPON_MONTHS_MAX = 120;

export const COUPON_MAX_REDEMPTIONS = 1_000_000;

export const COUPON_NAME_MAX = 100;

/** Stripe takes amounts of at most eight digits ($999,999.99); the column is a 32-bit integer of cents. */
export const COUPON_AMOUNT_OFF_MAX_CENTS = 99_999_999;

/** Spec section 5 'Coupon form' and section 10 'Coupons'. */
export const couponMessages = {
  codeRequired: 'Coupon code is required',
  codeTooLong: 'Coupon code must be less than or equal to 15 characters',
  codeCharacters: 'A coupon code has letters, digits, dashes and underscores only.',
  nameTooShort: 'Coupon name must be at least 3 characters',
  nameTooLong: `Coupon name must be at most ${COUPON_NAME_MAX} characters`,
  monthsRequired: 'Duration in months is required for repeating coupons',
  amountAboveZero: 'Amount off must be greater than 0',
  percentAboveZero: 'Percent off must be greater than 0',
  percentAtMost100: 'Percent off cannot exceed 100',
  productRequired: 'Must select at least one product',
  maxRedemptionsMin: 'Max redemptions must be at least 1',
  maxRedemptionsMax: `Max redemptions can be at most ${COUPON_MAX_REDEMPTIONS.toLocaleString('en-US')}`,
  monthsMax: `A repeating coupon lasts at most ${COUPON_MONTHS_MAX} months`,
  amountTooLarge: `Amount off cannot exceed ${formatMoney(COUPON_AMOUNT_OFF_MAX_CENTS, 'usd')}`,
  percentWhole: 'Percent off is a whole number.',
  foreverAmount: 'A fixed-amount coupon cannot last forever: choose once or repeating.',
  codeTaken: 'This coupon code already exists.',
  fetchFailed: 'Failed to fetch Stripe coupons',
  fetchRedemptionsFailed: 'Failed to fetch coupon redemption data',
  fetchOptionsFailed: 'Failed to fetch coupon options',
  createFailed: 'Failed to create coupon',
  deleteFailed: 'Failed to delete coupon',
  toggleFailed: 'Failed to toggle coupon',
  created: 'Coupon created!',
  /** A deleted coupon's redemptions are kept (docs/decisions/2026-11-25-coupon-delete.md). */
  deleted: (name: string, redemptions: number) =>
    redemptions === 0
      ? `Coupon ${name} deleted.`
      : `Coupon ${name} deleted. Its ${plural(redemptions, 'redemption stays', `${redemptions} redemptions stay`)} listed under Coupon Redemptions.`,
  couponNotFound: 'This coupon does not exist.',
  promoNotFound: 'This promo code does not exist.',
} as const;

export const COUPON_DURATIONS = [
  { value: 'once', label: 'Once' },
  { value: 'repeating', label: 'Repeating' },
  { value: 'forever', label: 'Forever' },
] as const;

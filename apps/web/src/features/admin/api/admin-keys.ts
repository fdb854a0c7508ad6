import type { AuditLogQuery, IpPool, SubnetFilters } from '@storefront/contract';

/**
 * The query keys of the admin console (TanStack Query's key factory), one factory per part of it. A change
 * invalidates only the keys of what it changed (and the audit log, which records every change).
 */
const admin = ['admin'] as const;

export const inventoryKeys = {
  all: [...admin, 'inventory'] as const,
  residential: () => [...inventoryKeys.all, 'residential'] as const,
  residentialDaily: () => [...inventoryKeys.all, 'residential-daily'] as const,
  residentialTop: () => [...inventoryKeys.all, 'residential-top'] as const,
  /** A pool's stock; each page of its burnt IPs is under it, so all reload together. */
  stock: (pool: IpPool) => [...inventoryKeys.all, 'stock', pool] as const,
  stockPage: (pool: IpPool, after: string | undefined) => [...inventoryKeys.stock(pool), after ?? null] as const,
  /** A pool's subnets; its pages and a subnet's IPs (below) are under it, so all reload together. */
  subnets: (pool: IpPool) => [...inventoryKeys.all, 'subnets', pool] as const,
  subnetPage: (pool: IpPool, filters: SubnetFilters, after: string | undefined) =>
    [...inventoryKeys.subnets(pool), 'page', filters, after ?? null] as const,
  subnet: (pool: IpPool, subnet: string, filters: SubnetFilters) =>
    [...inventoryKeys.subnets(pool), 'one', subnet, filters] as const,
  /** Customers' replacements by subnet: under the subnets, so that a swap or an upload reloads them too. */
  replacements: (pool: IpPool, after: string | undefined) =>
    [...inventoryKeys.subnets(pool), 'replacements', after ?? null] as const,
};

export const auditKeys = {
  all: [...admin, 'audit'] as const,
  page: (query: AuditLogQuery) => [...auditKeys.all, query] as const,
};

export const customOrderKeys = {
  all: [...admin, 'users'] as const,
  user: (email: string | null) => [...customOrderKeys.all, email] as const,
};

export const couponKeys = {
  all: [...admin, 'coupons'] as const,
  list: () => [...couponKeys.all, 'list'] as const,
  options: () => [...couponKeys.all, 'options'] as const,
  /** Without a position: the first page, and (as a prefix) every page and every code's e-mails. */
  redemptions: (before?: string) =>
    before ? ([...couponKeys.all, 'redemptions', before] as const) : ([...couponKeys.all, 'redemptions'] as const),
  redemptionEmails: (promoCodeId: string) => [...couponKeys.all, 'redemptions', 'emails', promoCodeId] as const,
};

export const alertsKeys = {
  all: [...admin, 'alerts'] as const,
};

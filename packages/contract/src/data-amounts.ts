import { KB_PER_GB } from './residential.ts';

/** The admin's residential pool counts 1000 MB to the GB (the customers' accounts count KB_PER_GB). */
export const POOL_MB_PER_GB = 1000;

/** A customer's residential data, kept in KB, as the shop shows it: in GB to 3 decimals (2,560,000 KB → '2.500 GB'). */
export function formatGb(kb: number): string {
  return `${(kb / KB_PER_GB).toFixed(3)} GB`;
}

/** The residential pool's data, kept in MB, as the admin console shows it (2,500 MB → '2.500 GB'). */
export function formatPoolGb(mb: number): string {
  return `${(mb / POOL_MB_PER_GB).toFixed(3)} GB`;
}

/** A share of data used, to one decimal (12.345 → '12.3%'). */
export function formatPercent(percent: number): string {
  return `${percent.toFixed(1)}%`;
}

/** The ranges of the usage statistics: today, the last 7 or 30 days, this month so far, or from and to. */
export const USAGE_RANGES = ['today', '7d', '30d', 'month', 'custom'] as const;
export type UsageRange = (typeof USAGE_RANGES)[number];
/** The longest custom range: as long as the hourly statistics are kept. */
export const USAGE_MAX_DAYS = 90;
/** Domains listed one by one; the rest together as others. */
export const USAGE_DOMAINS_SHOWN = 20;

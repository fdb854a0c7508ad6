import {
  COUNTRY_OPTIONS,
  formatDate,
  KB_PER_GB,
  USAGE_MAX_DAYS,
  USAGE_RANGES,
  type UsageQuery,
  type UsageRange,
  type UsageReport,
} from '@storefront/contract';

const BYTES_PER_KB = 1024;
const KB_PER_MB = KB_PER_GB / 1000;

/** The range's buttons, in the page's order. */
export const RANGE_LABELS: Record<UsageRange, string> = {
  today: 'Today',
  '7d': '7 days',
  '30d': '30 days',
  month: 'This month',
  custom: 'Custom',
};

/** The page's view, as its address keeps it (so that a view can be linked). */
export interface UsageView {
  range: UsageRange;
  from?: string;
  to?: string;
  by?: 'hour' | 'day';
  user?: string;
  country?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The view an address asks for: anything it does not say well is left to the API's defaults. */
export function viewOf(search: URLSearchParams): UsageView {
  const range = search.get('range');
  const by = search.get('by');
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  const user = search.get('user') ?? '';
  const country = search.get('country') ?? '';
  const view: UsageView = { range: USAGE_RANGES.includes(range as UsageRange) ? (range as UsageRange) : '7d' };
  if (view.range === 'custom') {
    if (DAY.test(from)) view.from = from;
    if (DAY.test(to)) view.to = to;
  }
  if (by === 'hour' || by === 'day') view.by = by;
  if (user) view.user = user.slice(0, 64);
  if (/^[A-Z]{2}$/.test(country)) view.country = country;
  return view;
}

/** The address's search params of a view (empty parts left out). */
export function searchOf(view: UsageView): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(view)) if (value) search.set(key, value);
  return search;
}

/** Days from `from` to `to`, both counted. */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

/** Why a custom range cannot be asked for yet, or undefined when it can. */
export function customRangeProblem(view: UsageView): string | undefined {
  if (view.range !== 'custom') return undefined;
  if (!view.from || !view.to) return 'Choose the first and the last day.';
  if (view.from > view.to) return 'The first day comes before the last.';
  if (daysBetween(view.from, view.to) > USAGE_MAX_DAYS) return `A custom range is at most ${USAGE_MAX_DAYS} days.`;
  return undefined;
}

/** The API's query for a view, in the reader's zone. */
export function queryOf(view: UsageView, timeZone: string | undefined): UsageQuery {
  return { ...view, ...(timeZone && { timeZone }) };
}

/** Bytes as the shop shows data: GB to 3 decimals from 1 GB (1024 × 1000 KB), else MB to 3 decimals. */
export function formatData(bytes: number): string {
  const kb = bytes / BYTES_PER_KB;
  return kb >= KB_PER_GB ? `${(kb / KB_PER_GB).toFixed(3)} GB` : `${(kb / KB_PER_MB).toFixed(3)} MB`;
}

/** KB (1024 bytes) as the shop shows data. */
export const formatKb = (kb: number) => formatData(kb * BYTES_PER_KB);

export const formatCount = (count: number) => count.toLocaleString('en-US');

/** Whole KB of an amount of bytes, as the CSV writes them (to 3 decimals). */
const kbOf = (bytes: number) => (bytes / BYTES_PER_KB).toFixed(3);

const countryNames = new Map(COUNTRY_OPTIONS.map((country) => [country.id, country.name]));

/** A country's name; '' is what carried no country targeting. */
export const countryName = (code: string) => (code === '' ? 'No targeting' : (countryNames.get(code) ?? code));

/** A domain's label; '' is an address or a domain not recorded. */
export const domainName = (domain: string) => (domain === '' ? 'Not recorded or an address' : domain);

/** A proxy user's label in the tables: the main user, or the proxy user's name (deleted ones said so). */
export const userName = (user: UsageReport['users'][number]) =>
  user.proxyUserId === null ? 'Main user' : user.deleted ? `${user.name} (deleted)` : user.name;

/** The label of one bar of the series: its hour or its day, in the reader's zone. */
export function pointLabel(start: string, by: 'hour' | 'day', timeZone: string | undefined): string {
  return by === 'hour'
    ? `${formatDate(start, 'month-day', timeZone)} ${new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(timeZone && { timeZone }) }).format(new Date(start))}`
    : formatDate(start, 'month-day', timeZone);
}

/** A row of one of the tables: its label and figures. */
export interface UsageRow {
  label: string;
  bytes: number;
  connections: number;
}

export type UsageTableName = 'series' | 'users' | 'countries' | 'domains';

/** The rows of a table of the report, as the page shows them (and the CSV writes them). */
export function rowsOf(report: UsageReport, table: UsageTableName, timeZone: string | undefined): UsageRow[] {
  switch (table) {
    case 'series':
      return report.series.map((point) => ({ ...point, label: pointLabel(point.start, report.by, timeZone) }));
    case 'users':
      return report.users.map((user) => ({ ...user, label: userName(user) }));
    case 'countries':
      return report.countries.map((entry) => ({ ...entry, label: countryName(entry.country) }));
    case 'domains':
      return [
        ...report.domains.map((entry) => ({ ...entry, label: domainName(entry.domain) })),
        ...(report.otherDomains.count > 0
          ? [{ ...report.otherDomains, label: `Others (${formatCount(report.otherDomains.count)} domains)` }]
          : []),
      ];
  }
}

const FIRST_COLUMN: Record<UsageTableName, string> = {
  series: 'Start',
  users: 'Proxy user',
  countries: 'Country',
  domains: 'Domain',
};

const cell = (value: string | number) => {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * A table of the report as CSV: the label, bytes, KB (1024 bytes) and connections of each row; the series also has
 * its start as an ISO instant first.
 */
export function usageCsv(report: UsageReport, table: UsageTableName, timeZone: string | undefined): string {
  const rows = rowsOf(report, table, timeZone);
  const header = [FIRST_COLUMN[table], 'Bytes', 'KB', 'Connections'];
  const lines: (string | number)[][] = [table === 'series' ? ['Start (ISO)', ...header] : header];
  rows.forEach((row, index) => {
    const figures = [row.label, row.bytes, kbOf(row.bytes), row.connections];
    lines.push(table === 'series' ? [report.series[index]?.start ?? '', ...figures] : figures);
  });
  return `${lines.map((line) => line.map(cell).join(',')).join('\n')}\n`;
}

/** The CSV's file name: usage-<from>-<to>-<table>.csv. */
export const csvFileName = (report: UsageReport, table: UsageTableName) =>
  `usage-${report.from}-${report.to}-${table}.csv`;

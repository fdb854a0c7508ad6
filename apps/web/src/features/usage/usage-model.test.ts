import type { UsageReport } from '@storefront/contract';
import { describe, expect, it } from 'vitest';
import {
  csvFileName,
  customRangeProblem,
  formatData,
  formatKb,
  rowsOf,
  searchOf,
  usageCsv,
  viewOf,
} from './usage-model.ts';

const report: UsageReport = {
  from: '2026-11-01',
  to: '2026-11-02',
  timeZone: 'UTC',
  by: 'day',
  summary: { bytes: 3072, connections: 3, leftKb: 1024 * 1000, bytesPerDay: 1536 },
  series: [
    { start: '2026-11-01T00:00:00.000Z', bytes: 1024, connections: 1 },
    { start: '2026-11-02T00:00:00.000Z', bytes: 2048, connections: 2 },
  ],
  users: [
    { proxyUserId: null, name: 'main', deleted: false, bytes: 1024, connections: 1 },
    { proxyUserId: 'pu_1', name: 'scraper, "eu"', deleted: true, bytes: 2048, connections: 2 },
  ],
  countries: [{ country: '', bytes: 3072, connections: 3 }],
  domains: [{ domain: 'example.com', bytes: 2048, connections: 2 }],
  otherDomains: { count: 4, bytes: 1024, connections: 1 },
};

describe('usage figures', () => {
  it('shows data as the shop does: MB below 1 GB, GB (1024 × 1000 KB) from it', () => {
    expect(formatData(0)).toBe('0.000 MB');
    expect(formatData(1024 * 1024)).toBe('1.000 MB');
    expect(formatData(1024 * 1024 * 1000)).toBe('1.000 GB');
    expect(formatKb(2_560_000)).toBe('2.500 GB');
  });

  it('names the rows: main, deleted users, no targeting, others', () => {
    expect(rowsOf(report, 'users', 'UTC').map((row) => row.label)).toEqual(['Main user', 'scraper, "eu" (deleted)']);
    expect(rowsOf(report, 'countries', 'UTC')[0]?.label).toBe('No targeting');
    expect(rowsOf(report, 'domains', 'UTC').map((row) => row.label)).toEqual(['example.com', 'Others (4 domains)']);
    expect(rowsOf(report, 'series', 'UTC').map((row) => row.label)).toEqual(['Nov 1', 'Nov 2']);
  });
});

describe('usage CSV', () => {
  it('writes a table with bytes, KB and connections, quoting where needed', () => {
    expect(usageCsv(report, 'users', 'UTC')).toBe(
      'Proxy user,Bytes,KB,Connections\nMain user,1024,1.000,1\n"scraper, ""eu"" (deleted)",2048,2.000,2\n',
    );
    expect(usageCsv(report, 'domains', 'UTC')).toBe(
      'Domain,Bytes,KB,Connections\nexample.com,2048,2.000,2\nOthers (4 domains),1024,1.000,1\n',
    );
  });

  it('writes the series with each start as an instant', () => {
    expect(usageCsv(report, 'series', 'UTC').split('\n').slice(0, 2)).toEqual([
      'Start (ISO),Start,Bytes,KB,Connections',
      '2026-11-01T00:00:00.000Z,Nov 1,1024,1.000,1',
    ]);
  });

  it('names the file by range and table', () => {
    expect(csvFileName(report, 'countries')).toBe('usage-2026-11-01-2026-11-02-countries.csv');
  });
});

describe('usage view in the address', () => {
  it('reads what it understands and leaves the rest to the defaults', () => {
    expect(viewOf(new URLSearchParams('range=custom&from=2026-11-01&to=2026-11-30&by=hour&country=us'))).toEqual({
      range: 'custom',
      from: '2026-11-01',
      to: '2026-11-30',
      by: 'hour',
    });
    expect(viewOf(new URLSearchParams('range=year&user=main'))).toEqual({ range: '7d', user: 'main' });
  });

  it('writes a view back without its empty parts', () => {
    expect(searchOf({ range: 'month', country: 'DE' }).toString()).toBe('range=month&country=DE');
  });

  it('asks for a custom range only when it is whole and at most 90 days', () => {
    expect(customRangeProblem({ range: 'custom', from: '2026-11-01' })).toBe('Choose the first and the last day.');
    expect(customRangeProblem({ range: 'custom', from: '2026-11-02', to: '2026-11-01' })).toBeDefined();
    expect(customRangeProblem({ range: 'custom', from: '2026-01-01', to: '2026-04-01' })).toBe(
      'A custom range is at most 90 days.',
    );
    expect(customRangeProblem({ range: 'custom', from: '2026-01-01', to: '2026-03-31' })).toBeUndefined();
  });
});

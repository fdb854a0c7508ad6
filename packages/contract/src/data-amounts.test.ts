import { describe, expect, it } from 'vitest';
import { formatGb, formatPercent, formatPoolGb } from './data-amounts.ts';
import { KB_PER_GB } from './residential.ts';

describe('data amounts', () => {
  it("writes a customer's KB in GB of 1024 × 1000 KB, to 3 decimals", () => {
    expect(formatGb(KB_PER_GB * 2.5)).toBe('2.500 GB');
    expect(formatGb(512)).toBe('0.001 GB');
    expect(formatGb(0)).toBe('0.000 GB');
  });

  it("writes the pool's MB in GB of 1000 MB", () => {
    expect(formatPoolGb(2_500)).toBe('2.500 GB');
    expect(formatPoolGb(1)).toBe('0.001 GB');
  });

  it('writes a percentage to one decimal', () => {
    expect(formatPercent(12.345)).toBe('12.3%');
    expect(formatPercent(100)).toBe('100.0%');
  });
});

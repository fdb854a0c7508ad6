import { describe, expect, it } from 'vitest';
import { counted, plural } from './plurals.ts';

describe('plural', () => {
  it('takes the singular for one only', () => {
    expect(plural(1, 'order', 'orders')).toBe('order');
    expect(plural(0, 'order', 'orders')).toBe('orders');
    expect(plural(2, 'order', 'orders')).toBe('orders');
    expect(plural(1.5, 'minute', 'minutes')).toBe('minutes');
  });

  it('writes a count with its word', () => {
    expect(counted(1, 'IP', 'IPs')).toBe('1 IP');
    expect(counted(21, 'IP', 'IPs')).toBe('21 IPs');
    expect(counted(0, 'waiting order', 'waiting orders')).toBe('0 waiting orders');
  });
});

import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type Order, orderListSchema } from '@storefront/contract';
import { describe, expect, it } from 'vitest';
import { acceptedEncoding, createOrdersAnswers } from './orders-json.ts';

const order = (id: string, proxies: string[], cancelled = false): Order => ({
  id,
  product_id: 'isp_proxies',
  purchase_time: '2026-11-24T00:00:00.000Z',
  expiration_time: null,
  proxies,
  processing: false,
  cancelled,
  payment_failed: false,
  expired: false,
});
const endpoints = (count: number, password = 'p') =>
  Array.from({ length: count }, (_, index) => `10.0.${index >> 8}.${index & 255}:8000:user:${password}"`);

describe('GET /api/orders answers', () => {
  it('parse to what the schema gives, with or without proxies, and for no orders', () => {
    const answers = createOrdersAnswers();
    const list = [order('a', endpoints(2)), order('b', [])];
    const { bytes, encoding } = answers.answer('u1', list, undefined);
    expect(encoding).toBeUndefined();
    expect(JSON.parse(bytes.toString())).toEqual(orderListSchema.parse(list));
    expect(answers.answer('u2', [], 'br').bytes.toString()).toBe('[]');
  });

  it('are kept while unchanged, made anew when an order or its list changes, and compressed once', () => {
    const answers = createOrdersAnswers();
    const proxies = endpoints(500);
    const first = answers.answer('u1', [order('a', proxies)], 'gzip, br');
    expect(first.encoding).toBe('br');
    expect(JSON.parse(brotliDecompressSync(first.bytes).toString())[0].proxies).toEqual(proxies);
    // The same orders and the same list object: the same bytes, not compressed again.
    expect(answers.answer('u1', [order('a', proxies)], 'br').bytes).toBe(first.bytes);
    // Another customer's read never gets this customer's answer.
    expect(JSON.parse(answers.answer('u2', [], 'br').bytes.toString())).toEqual([]);
    // A changed field, or a new list (the endpoint cache's after a change of IPs): made anew.
    const cancelled = answers.answer('u1', [order('a', proxies, true)], 'br');
    expect(JSON.parse(brotliDecompressSync(cancelled.bytes).toString())[0].cancelled).toBe(true);
    const renewed = endpoints(500, 'q');
    const changed = answers.answer('u1', [order('a', renewed, true)], 'gzip');
    expect(changed.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(changed.bytes).toString())[0].proxies).toEqual(renewed);
  });

  it('leave out fields the contract does not have, and refuse an order it would refuse', () => {
    const answers = createOrdersAnswers();
    const extra = { ...order('a', []), userId: 'someone' } as Order;
    expect(JSON.parse(answers.answer('u1', [extra], undefined).bytes.toString())[0]).not.toHaveProperty('userId');
    expect(() =>
      answers.answer('u1', [{ ...order('a', []), product_id: 'nothing' } as unknown as Order], undefined),
    ).toThrow();
    expect(() => answers.answer('u1', [order('a', [42 as unknown as string])], undefined)).toThrow();
  });
});

describe('acceptedEncoding', () => {
  it('prefers br, falls back to gzip, and honours q=0 and *', () => {
    expect(acceptedEncoding(undefined)).toBeUndefined();
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('gzip')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(acceptedEncoding('gzip;q=1.0, br;q=0.2')).toBe('gzip');
    expect(acceptedEncoding('identity')).toBeUndefined();
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('*, br;q=0')).toBe('gzip');
    expect(acceptedEncoding('deflate')).toBeUndefined();
  });
});

import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-id.ts';

const withHeader = (value?: string | string[]) =>
  ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as unknown as IncomingMessage;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it("keeps a caller's id of letters, digits and ._:- up to 128 characters", () => {
    for (const id of ['abc', 'lb-1:2.3_4', 'x'.repeat(128), '0f8fad5b-d9cb-469f-a165-70867728950e']) {
      expect(requestIdOf(withHeader(id))).toBe(id);
    }
  });
  it('makes a new UUID for no id, an empty, long or odd one, or a repeated header', () => {
    for (const value of [undefined, '', 'x'.repeat(129), 'a b', 'a\nb', '<script>', 'ü', ['a', 'b']]) {
      expect(requestIdOf(withHeader(value))).toMatch(UUID);
    }
  });
  it('never makes the same id twice', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => requestIdOf(withHeader())));
    expect(ids.size).toBe(1000);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { preparedJson } from './prepared-json.ts';

const schema = z.object({ name: z.string(), count: z.number().int() });

describe('preparedJson', () => {
  it('makes the bytes the schema gives, once per source object, and an ETag of those bytes', () => {
    let made = 0;
    const prepare = preparedJson(schema, (source: { name: string; count: number; secret?: string }) => {
      made += 1;
      return source;
    });
    const source = { name: 'isp', count: 3, secret: 'not in the answer' };
    const first = prepare(source);
    // Keys the schema does not know are left out, as the route's serializer leaves them out.
    expect(JSON.parse(first.body.toString('utf8'))).toEqual({ name: 'isp', count: 3 });
    expect(prepare(source)).toBe(first);
    expect(made).toBe(1);
    expect(first.etag).toMatch(/^"[\w-]{27}"$/);

    // Another object with the same content: the same bytes and ETag; another content: another ETag.
    expect(prepare({ name: 'isp', count: 3 }).etag).toBe(first.etag);
    expect(prepare({ name: 'isp', count: 4 }).etag).not.toBe(first.etag);
    expect(made).toBe(3);
  });

  it('refuses an answer its schema refuses, rather than sending it', () => {
    const prepare = preparedJson(schema, (source: { name: string; count: number }) => source);
    expect(() => prepare({ name: 'isp', count: 1.5 })).toThrow();
  });
});

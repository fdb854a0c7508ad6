import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds } from './json-body.ts';

describe('jsonDepthExceeds', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('counts objects and arrays, not the brackets inside strings', () => {
    expect(jsonDepthExceeds(nested(32), 32)).toBe(false);
    expect(jsonDepthExceeds(nested(33), 32)).toBe(true);
    expect(jsonDepthExceeds(`{"a":{"b":[1,{"c":"${'['.repeat(100)}"}]}}`, 4)).toBe(false);
    expect(jsonDepthExceeds(`{"a":{"b":[1,{"c":{"d":1}}]}}`, 4)).toBe(true);
  });

  it('is not fooled by escaped quotes', () => {
    expect(jsonDepthExceeds(`{"a":"\\"[[[[[[","b":1}`, 1)).toBe(false);
    expect(jsonDepthExceeds(`{"a":"\\\\",  "b":[[1]]}`, 2)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { hasLoneSurrogate, jsonDepthExceeds, jsonHasNul } from './json-body.ts';

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

describe('jsonHasNul', () => {
  it('finds U+0000 written as an escape in any string, and only there', () => {
    expect(jsonHasNul(JSON.stringify({ email: 'a\u0000b@example.com' }))).toBe(true);
    expect(jsonHasNul(JSON.stringify(['x', { deep: ['\u0000'] }]))).toBe(true);
    expect(jsonHasNul(JSON.stringify({ note: 'a backslash then u0000: \\u0000' }))).toBe(false);
    expect(jsonHasNul(JSON.stringify({ note: '\\\u0000' }))).toBe(true);
    expect(jsonHasNul('{"plain":"text"}')).toBe(false);
  });
});

describe('hasLoneSurrogate', () => {
  it('finds an unpaired surrogate in any string or key of a parsed body, and accepts paired ones', () => {
    expect(hasLoneSurrogate(JSON.parse('{"name":"Al\\ud800ice"}'))).toBe(true);
    expect(hasLoneSurrogate(JSON.parse('{"list":[1,{"k":"\\udfff"}]}'))).toBe(true);
    expect(hasLoneSurrogate(JSON.parse('{"\\ud800":1}'))).toBe(true);
    expect(hasLoneSurrogate(JSON.parse('{"name":"smile \\ud83d\\ude00","n":1,"x":null}'))).toBe(false);
    expect(hasLoneSurrogate({ name: 'Ann 😀', tags: ['a'] })).toBe(false);
  });
});

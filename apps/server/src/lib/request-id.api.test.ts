import { Writable } from 'node:stream';
import { messages } from '@storefront/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let t: TestApp;
  const lines: { reqId?: string; msg?: string }[] = [];
  beforeAll(async () => {
    const log = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    t = await createTestApp({}, { log });
    // A route that fails as a bug would, to see a fault's answer.
    t.app.get('/api/test-fault', async () => {
      throw new Error('a bug');
    });
  });
  afterAll(() => t.close());

  it("keeps a caller's valid X-Request-Id and sends it back", async () => {
    const answer = await t.app.inject({ url: '/api/health', headers: { 'x-request-id': 'lb-7f3a:2.1_x' } });
    expect(answer.headers['x-request-id']).toBe('lb-7f3a:2.1_x');
  });

  it('gives every other request a new UUID, on answers of every kind', async () => {
    const answers = await Promise.all([
      t.app.inject({ url: '/api/health' }),
      t.app.inject({ url: '/api/health' }),
      t.app.inject({ url: '/api/no-such-thing' }),
      t.app.inject({ url: '/api/orders' }),
      t.app.inject({ url: '/no-such-page' }),
      t.app.inject({ url: '/api/health', headers: { 'x-request-id': 'spaces are not allowed' } }),
      t.app.inject({ url: '/api/health', headers: { 'x-request-id': 'x'.repeat(129) } }),
    ]);
    const ids = answers.map((answer) => String(answer.headers['x-request-id']));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names the request in a fault’s answer and in every log line of that request', async () => {
    const answer = await t.app.inject({ url: '/api/test-fault', headers: { 'x-request-id': 'support-case-1' } });
    expect(answer.statusCode).toBe(500);
    expect(answer.headers['x-request-id']).toBe('support-case-1');
    expect(answer.json()).toEqual({
      message: `${messages.internalError} If it keeps happening, quote this id to support: support-case-1.`,
      requestId: 'support-case-1',
    });
    const ofRequest = lines.filter((line) => line.reqId === 'support-case-1');
    expect(ofRequest.map((line) => line.msg)).toEqual(['incoming request', 'request failed', 'request completed']);
  });
});

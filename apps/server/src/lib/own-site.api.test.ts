import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { crossSiteMessage } from './own-site.ts';

describe('a shop on localhost', () => {
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const log = new PassThrough();
    log.on('data', (chunk: Buffer) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    });
    t = await createTestApp({}, { log });
  });
  afterAll(() => t.close());

  const signIn = (origin: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', origin },
      payload: { email: 'nobody@example.com', password: 'wrong-password-1' },
    });

  it('takes forms from each of its loopback names, whichever address the newcomer opened', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      const answer = await signIn(origin);
      expect(answer.statusCode, origin).toBe(401);
    }
  });

  it('refuses another site, and says in the log which Origin came and which were expected', async () => {
    const answer = await signIn('http://127.0.0.1:4000');
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe(crossSiteMessage);
    const warning = lines.find((line) => String(line.msg).startsWith('cross-site request refused'));
    expect(warning).toMatchObject({ level: 40, origin: 'http://127.0.0.1:4000' });
    expect(warning?.expected).toContain('http://localhost:3000');
  });
});

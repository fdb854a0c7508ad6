import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

// Against the machine's Redis (CI sets TEST_REDIS_URL=redis://127.0.0.1:6379); each run counts under its own prefix.
const redisUrl = process.env.TEST_REDIS_URL;
const headers = { 'content-type': 'application/json', origin: 'http://localhost:3000' };

const signIn = (t: TestApp, email: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers,
    remoteAddress: ip,
    payload: { email, password: 'whatever' },
  });

describe.runIf(redisUrl)('rate limits shared through Redis', () => {
  const prefix = `storefront-test-${randomBytes(6).toString('hex')}:`;
  const env = { REDIS_URL: redisUrl ?? '', REDIS_KEY_PREFIX: prefix, AUTH_RATE_LIMIT_PER_ACCOUNT: '3' };
  let first: TestApp;
  let second: TestApp;
  let redis: Redis;
  beforeAll(async () => {
    [first, second] = await Promise.all([createTestApp(env), createTestApp(env)]);
    redis = new Redis(redisUrl ?? '');
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await Promise.all([first.close(), second.close()]);
  });

  it('counts the attempts made on every instance together', async () => {
    expect((await signIn(first, 'target@example.com', '10.1.0.1')).statusCode).toBe(401);
    expect((await signIn(second, 'target@example.com', '10.1.0.2')).statusCode).toBe(401);
    expect((await signIn(first, 'target@example.com', '10.1.0.3')).statusCode).toBe(401);
    const blocked = await signIn(second, 'target@example.com', '10.1.0.4');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(await redis.keys(`${prefix}rate-limit:*`)).not.toHaveLength(0);
  });
});

describe('rate limits with Redis unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1', AUTH_RATE_LIMIT_PER_EMAIL: '1' });
  });
  afterAll(() => t.close());

  it('keeps sign-in working (the limits are skipped, not the requests)', async () => {
    for (let i = 0; i < 3; i++) expect((await signIn(t, 'someone@example.com', '10.2.0.1')).statusCode).toBe(401);
  });
});

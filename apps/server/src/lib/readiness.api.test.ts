import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createTestApp, type TestApp } from '../test/test-app.ts';
import { cachedProbe } from './readiness.ts';

describe('GET /api/health/ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports each dependency, and what this instance does not use as not configured', async () => {
    const answer = await callApi(t, 'GET', '/api/health/ready');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.json()).toEqual({
      status: 'ready',
      version: expect.any(String),
      checks: {
        database: { status: 'ok' },
        redis: { status: 'not configured' },
        smtp: { status: 'not configured' },
        job: { status: 'not configured' },
        gateway: { status: 'not configured' },
      },
    });
  });

  it('answers 503 when the database is gone', async () => {
    const ping = t.database.ping;
    t.database.ping = async () => false;
    try {
      const answer = await callApi(t, 'GET', '/api/health/ready');
      expect(answer.statusCode).toBe(503);
      expect(answer.json().status).toBe('unavailable');
      expect(answer.json().checks.database).toEqual({ status: 'down', reason: 'the database did not answer' });
    } finally {
      t.database.ping = ping;
    }
  });
});

describe('readiness of Redis and of the periodic job', () => {
  // One app for both: an unreachable Redis and a job running every hour.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1', JOBS_INTERVAL_S: '3600' });
    await t.app.ready();
  });
  afterAll(() => t.close());

  it('says down with a reason for an unreachable Redis, and still 200: the shop serves without it', async () => {
    const answer = await callApi(t, 'GET', '/api/health/ready');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().checks.redis).toEqual({ status: 'down', reason: expect.stringMatching(/^connection /) });
  });

  it('is down once the job has failed three times in a row, and ok again after a success', async () => {
    const job = async () => (await callApi(t, 'GET', '/api/health/ready')).json().checks.job;
    expect(await job()).toEqual({ status: 'ok' });
    const execute = t.database.db.execute;
    // The job's first statement fails as if the database refused it.
    t.database.db.execute = (() => Promise.reject(new Error('relation is locked'))) as unknown as typeof execute;
    const select = t.database.db.select;
    t.database.db.select = (() => {
      throw new Error('relation is locked');
    }) as unknown as typeof select;
    for (let i = 0; i < 3; i++) await expect(t.app.jobs.runOnce()).rejects.toThrow();
    t.database.db.select = select;
    t.database.db.execute = execute;
    expect(await job()).toEqual({ status: 'down', reason: expect.stringMatching(/^failed 3 times in a row/) });
    await t.app.jobs.runOnce();
    expect(await job()).toEqual({ status: 'ok' });
  });
});

describe('cachedProbe', () => {
  it('reports the last answer, asks again only after its interval, and gives up on a probe that hangs', async () => {
    let calls = 0;
    let behaviour: 'ok' | 'fail' | 'hang' = 'ok';
    const probe = cachedProbe(
      async () => {
        calls += 1;
        if (behaviour === 'fail') throw new Error('connection refused');
        if (behaviour === 'hang') await new Promise(() => {});
      },
      { intervalMs: 60_000, timeoutMs: 50 },
    );
    expect(probe.current()).toEqual({ status: 'down', reason: 'not checked yet' });
    await probe.refresh();
    expect(probe.current()).toEqual({ status: 'ok' });
    expect(calls).toBe(1);
    behaviour = 'fail';
    await probe.refresh();
    expect(probe.current()).toEqual({ status: 'down', reason: 'connection refused' });
    behaviour = 'hang';
    await probe.refresh();
    expect(probe.current()).toEqual({ status: 'down', reason: 'no answer within 0.05 s' });
    expect(calls).toBe(3);
  });
});

import { PassThrough } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMailer } from '../../lib/mailer.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('a start with the mail server and Redis unreachable', () => {
  let t: TestApp;
  const lines: { level: number; msg: string }[] = [];
  beforeAll(async () => {
    const log = new PassThrough();
    log.on('data', (chunk: Buffer) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    });
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'shop@example.com' }, pino({ level: 'silent' }));
    t = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1' }, { log, mailer });
    await t.app.ready();
  });
  afterAll(() => t.close());

  it('names each by its setting once, carries on, and shows them down in readiness and the metrics', async () => {
    await vi.waitFor(() => {
      const warnings = lines.filter((line) => line.level >= 40).map((line) => line.msg);
      expect(warnings.filter((msg) => msg.includes('SMTP_URL'))).toHaveLength(1);
      expect(warnings.some((msg) => msg.includes('REDIS_URL'))).toBe(true);
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/pricing' })).statusCode).toBe(200);
    const ready = (await t.app.inject({ method: 'GET', url: '/api/health/ready' })).json();
    expect(ready.checks.smtp.status).toBe('down');
    expect(ready.checks.redis.status).toBe('down');
    const gauge = await t.app.metrics.registry.getSingleMetricAsString('storefront_dependency_up');
    expect(gauge).toContain('dependency="smtp"} 0');
    expect(gauge).toContain('dependency="redis"} 0');
  });
});

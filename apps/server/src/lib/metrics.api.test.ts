import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createTestApp, signUpCustomer, type TestApp } from '../test/test-app.ts';
import { type MetricsListener, startMetricsListener } from './metrics-listener.ts';

const quiet = { info: () => {}, error: () => {} };

describe('Prometheus metrics', () => {
  let t: TestApp;
  let listener: MetricsListener;
  const scrape = async () => {
    const answer = await fetch(`http://127.0.0.1:${listener.port}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return answer.text();
  };
  beforeAll(async () => {
    t = await createTestApp({ CHECKOUT_RATE_LIMIT_PER_USER: '100' });
    const started = await startMetricsListener({
      host: '127.0.0.1',
      port: 0,
      registry: t.app.metrics.registry,
      log: quiet,
    });
    if (!started) throw new Error('no metrics listener');
    listener = started;
  });
  afterAll(async () => {
    await listener.close();
    await t.close();
  });

  it('serves Node’s own metrics and the shop’s, on its own listener and not on the public port', async () => {
    const text = await scrape();
    for (const name of [
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'storefront_stock_available{product="isp_proxies"}',
      'storefront_stock_available{product="residential_proxies"}',
      'storefront_orders_waiting{product="pk1_isp_proxies"} 0',
      'storefront_outbox_pending 0',
      'storefront_job_last_success_timestamp_seconds 0',
      'storefront_stock_alert_threshold{product="isp_proxies"} 20',
      'storefront_stock_alert_threshold{product="residential_proxies"} 50',
      'storefront_dependency_up{dependency="database"} 1',
    ]) {
      expect(text, name).toContain(name);
    }
    // The public port has no such page (without a web build here, a page path answers 503 saying how to build).
    const publicPage = await t.app.inject({ url: '/metrics' });
    expect(publicPage.statusCode).not.toBe(200);
    expect(publicPage.body).not.toContain('process_cpu_seconds_total');
    expect((await t.app.inject({ url: '/api/metrics' })).statusCode).toBe(404);
    expect((await fetch(`http://127.0.0.1:${listener.port}/anything`)).status).toBe(404);
  });

  it('times requests by route pattern, never by address', async () => {
    await t.app.inject({ url: '/api/pricing?x=secret-looking-value' });
    await t.app.inject({ url: '/api/orders/not-a-uuid/proxies' });
    const text = await scrape();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/pricing",status_code="200"\} \d+/,
    );
    expect(text).not.toContain('secret-looking-value');
    expect(text).not.toContain('not-a-uuid');
  });

  it('counts checkouts by product and result', async () => {
    const ann = await signUpCustomer(t, 'metrics-ann@example.com');
    const checkout = (body: object) => callApi(t, 'POST', '/api/checkout', { cookie: ann.cookie, payload: body });
    expect((await checkout({ productId: 'isp_proxies', quantity: 5 })).statusCode).toBe(200);
    expect((await checkout({ productId: 'isp_proxies', quantity: 20_000 })).statusCode).toBe(400);
    expect((await checkout({ productId: 'made-up', quantity: 1 })).statusCode).toBe(400);
    const text = await scrape();
    expect(text).toContain('storefront_checkouts_total{product="isp_proxies",result="started"} 1');
    expect(text).toContain('storefront_checkouts_total{product="isp_proxies",result="refused"} 1');
    expect(text).toContain('storefront_checkouts_total{product="unknown",result="refused"} 1');
    expect(text).not.toContain('made-up');
  });

  it('reads the database for its gauges at most every 15 seconds, however often it is scraped', async () => {
    const before = (await scrape()).match(/storefront_orders_waiting\{product="isp_proxies"\} (\d+)/)?.[1];
    let reads = 0;
    const select = t.database.db.select.bind(t.database.db);
    t.database.db.select = ((...args: Parameters<typeof select>) => {
      reads += 1;
      return select(...args);
    }) as typeof select;
    try {
      for (let i = 0; i < 5; i++) await scrape();
    } finally {
      t.database.db.select = select;
    }
    expect(reads).toBe(0);
    expect(before).toBeDefined();
  });

  it('names the build, and the sign-in, sign-up and reset calls apart from the rest of better-auth', async () => {
    for (const url of ['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/auth/request-password-reset']) {
      await callApi(t, 'POST', url, { payload: { email: 'metrics@example.com', password: 'wrong-password-1' } });
    }
    await callApi(t, 'GET', '/api/auth/reset-password/secret-token-in-the-path');
    const text = await scrape();
    expect(text).toMatch(/storefront_build_info\{version="[^"]+",commit="[^"]+"\} 1/);
    for (const route of ['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/auth/request-password-reset']) {
      expect(text, route).toContain(`route="${route}"`);
    }
    expect(text).toContain('route="/api/auth/*"');
    expect(text).not.toContain('secret-token-in-the-path');
  });
});

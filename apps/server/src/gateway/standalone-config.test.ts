import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';

/** Issue 38 item 5: the gateway alone reads only its own settings. */
describe('the standalone gateway configuration', () => {
  const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://gateway@db.example/shop' };

  it('starts on PostgreSQL in production without AUTH_SECRET, SMTP_URL or Stripe keys', () => {
    const config = loadConfig(production, 'gateway');
    expect(config.database.kind).toBe('postgres');
    expect(config.gateway).toMatchObject({ port: 8080, proxyProtocol: false, upstream: undefined });
    // The server on the same environment refuses, as it should.
    expect(() => loadConfig(production, 'server')).toThrow(ConfigError);
  });

  it("neither reads nor refuses the shop's other settings", () => {
    const config = loadConfig(
      {
        ...production,
        STRIPE_SECRET_KEY: 'not a key',
        SMTP_URL: 'mail.example.com',
        AUTH_SECRET: 'short',
        GOOGLE_CLIENT_ID: 'only half of a pair',
        PRICE_RESIDENTIAL_PROXIES: '-1',
        GATEWAY_PROXY_PROTOCOL: 'true',
        APP_URL: 'https://shop.example.com',
      },
      'gateway',
    );
    expect(config.gateway.proxyProtocol).toBe(true);
    expect(config.gateway.purchaseUrl).toBe('https://shop.example.com/dashboard/purchase');
    expect(config.payments.provider).toBe('sandbox');
    expect(config.auth.google).toBeUndefined();
  });

  it('reads METRICS_HOST and METRICS_PORT: its metrics and health checks listen there, or nowhere with 0', () => {
    expect(loadConfig(production, 'gateway').metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ ...production, METRICS_HOST: '0.0.0.0', METRICS_PORT: '9470' }, 'gateway').metrics).toEqual({
      host: '0.0.0.0',
      port: 9470,
    });
    expect(loadConfig({ ...production, METRICS_PORT: '0' }, 'gateway').metrics).toBeUndefined();
    expect(() => loadConfig({ ...production, METRICS_PORT: 'none' }, 'gateway')).toThrow(/METRICS_PORT must be/);
  });

  it('refuses a bad gateway setting in a sentence naming it', () => {
    expect(() => loadConfig({ ...production, GATEWAY_PROXY_PROTOCOL: 'maybe' }, 'gateway')).toThrow(
      'The configuration was refused: GATEWAY_PROXY_PROTOCOL must be true or false (got "maybe").',
    );
    expect(() => loadConfig({ ...production, DATABASE_POOL_SIZE: '0' }, 'gateway')).toThrow(
      /DATABASE_POOL_SIZE must be a whole number from 1 to 1000 \(got "0"\)\./,
    );
  });
});

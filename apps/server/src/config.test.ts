import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to embedded PGlite under ./data, port 3000 and the spec prices', () => {
    const config = loadConfig({});
    expect(config.database.kind).toBe('pglite');
    expect(config.port).toBe(3000);
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.pricesCents).toEqual({ isp_proxies: 250, pk1_isp_proxies: 250, residential_proxies: 500 });
    expect(config.seedDemo).toBe(true);
  });

  it('reads postgres:// URLs, memory:// and pglite:<dir>', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).database).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://u@h/db',
    });
    expect(loadConfig({ DATABASE_URL: 'memory://' }).database).toEqual({ kind: 'pglite', dataDir: undefined });
    expect(loadConfig({ DATABASE_URL: 'pglite:/tmp/x' }).database).toEqual({ kind: 'pglite', dataDir: '/tmp/x' });
  });

  it('names every bad variable', () => {
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe', PRICE_ISP_PROXIES: '-1' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      for (const name of ['PORT', 'DATABASE_URL', 'SEED_DEMO', 'PRICE_ISP_PROXIES']) expect(message).toContain(name);
    }
  });
});

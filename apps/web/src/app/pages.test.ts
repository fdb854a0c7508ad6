import { describe, expect, it } from 'vitest';
import { splitPartsOf } from '../lib/split-part.tsx';
import { browserPages, type SplitPage, serverDrawnPages, signedInPages } from './pages.tsx';

const everyPage: SplitPage[] = [...serverDrawnPages, ...Object.values(browserPages)];

describe('the route table', () => {
  it('names for each page the module it loads, which the server links by that name', async () => {
    for (const page of everyPage) {
      const loaded = await page.preload();
      const source: Record<string, unknown> = await import(/* @vite-ignore */ `../${page.module.slice('src/'.length)}`);
      expect(Object.values(source), page.module).toContain(loaded);
    }
  }, 60_000);

  it('names for each part a page splits off the module it loads, which the server links when it draws it', async () => {
    let parts = 0;
    for (const page of serverDrawnPages) {
      await page.preload();
      const source: Record<string, unknown> = await import(/* @vite-ignore */ `../${page.module.slice('src/'.length)}`);
      for (const part of splitPartsOf(source)) {
        parts += 1;
        expect(part.module, page.module).toBeDefined();
        const loaded = await part.preload();
        const partSource: Record<string, unknown> = await import(
          /* @vite-ignore */ `../${(part.module ?? '').slice('src/'.length)}`
        );
        expect(Object.values(partSource), part.module).toContain(loaded);
      }
    }
    // Proxies' Residential tab and the admin console's PK1 IP Inventory and Audit Log tabs.
    expect(parts).toBe(3);
  }, 60_000);

  it('declares each signed-in page once', () => {
    const paths = signedInPages.map((entry) => entry.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

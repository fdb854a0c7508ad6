import { describe, expect, it } from 'vitest';
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

  it('declares each signed-in page once', () => {
    const paths = signedInPages.map((entry) => entry.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

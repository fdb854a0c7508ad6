import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { webBuildIsStale } from '../../../../scripts/web-build.ts';
import { tempDir } from '../test/service.ts';

// `npm start` builds only when the build is missing or older than what it is built from.
describe('whether the web build is stale', () => {
  const folder = tempDir('storefront-web-build-');
  afterAll(() => folder.cleanup());
  const file = (name: string, secondsAgo: number) => {
    const full = path.join(folder.dir, name);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, 'x');
    // A folder's own time changes when a file is added or removed (which makes a build stale too): set it alike.
    const at = new Date(Date.now() - secondsAgo * 1000);
    for (let entry = full; entry !== folder.dir; entry = path.dirname(entry)) utimesSync(entry, at, at);
  };

  it('is stale when missing, fresh when newer than every source, stale again when a source changes', () => {
    file('apps/web/src/main.tsx', 100);
    file('packages/contract/src/index.ts', 100);
    expect(webBuildIsStale(folder.dir)).toBe('apps/web/dist/index.html is missing');
    file('apps/web/dist/index.html', 50);
    file('apps/web/dist/.vite/manifest.json', 50);
    file('apps/web/dist-ssr/entry-server.js', 50);
    expect(webBuildIsStale(folder.dir)).toBeUndefined();
    file('packages/contract/src/checkout.ts', 10);
    expect(webBuildIsStale(folder.dir)).toBe('packages/contract/src changed since the last build');
    file('apps/web/dist-ssr/entry-server.js', 5);
    expect(webBuildIsStale(folder.dir)).toBe('packages/contract/src changed since the last build');
    file('apps/web/dist/index.html', 1);
    file('apps/web/dist/.vite/manifest.json', 1);
    expect(webBuildIsStale(folder.dir)).toBeUndefined();
  });
});

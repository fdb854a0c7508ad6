import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../test/service.ts';

// The version in package.json is the changelog's latest, which the release and the start line carry.
describe('CHANGELOG.md', () => {
  it('keeps a changelog whose latest version is the one in package.json', () => {
    const changelog = readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8');
    const versions = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map(
      ([, version, date]) => ({
        version,
        date,
      }),
    );
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    expect(versions.length).toBeGreaterThan(0);
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(versions[0]?.version).toBe(version);
    // Newest first, dates never going forward.
    const dates = versions.map((entry) => entry.date ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
  });
});

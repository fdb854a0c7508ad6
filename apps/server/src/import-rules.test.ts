import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from './test/service.ts';

/**
 * The import rules live in .dependency-cruiser.cjs and `npm run lint` checks the tree with them. This runs them on a
 * small tree built to break each rule once (and to keep a few allowed imports), so that a rule that stops matching
 * (a path or a pattern mistyped) fails here rather than letting every import through.
 */
const files: Record<string, string> = {
  // A loop of type-only imports.
  'apps/server/src/a.ts': "import type { B } from './b.ts';\nexport type A = B | 1;\n",
  'apps/server/src/b.ts': "import type { A } from './a.ts';\nexport type B = A | 2;\n",
  // lib reaching up into a module (its test may).
  'apps/server/src/lib/low.ts': "import { jobs } from '../modules/jobs/jobs.ts';\nexport const low = jobs;\n",
  'apps/server/src/lib/low.test.ts': "import { jobs } from '../modules/jobs/jobs.ts';\nexport const t = jobs;\n",
  // sandbox -> jobs -> billing is the allowed direction, billing -> sandbox is not; every module may use auth.
  'apps/server/src/modules/sandbox/pay.ts': "import { jobs } from '../jobs/jobs.ts';\nexport const pay = jobs;\n",
  'apps/server/src/modules/jobs/jobs.ts': "import { bill } from '../billing/bill.ts';\nexport const jobs = bill;\n",
  'apps/server/src/modules/billing/bill.ts':
    "import { guard } from '../auth/guard.ts';\nimport type { Pay } from '../sandbox/types.ts';\nexport const bill = guard;\nexport type P = Pay;\n",
  'apps/server/src/modules/sandbox/types.ts': 'export type Pay = 1;\n',
  'apps/server/src/modules/auth/guard.ts': 'export const guard = 1;\n',
  // A module missing from the table imports no other.
  'apps/server/src/modules/unlisted/use.ts': "import { guard } from '../auth/guard.ts';\nexport const use = guard;\n",
  // The payment providers and the gateway import no module.
  'apps/server/src/payments/provider.ts':
    "import { guard } from '../modules/auth/guard.ts';\nexport const p = guard;\n",
  'apps/server/src/gateway/accounts.ts': "import { guard } from '../modules/auth/guard.ts';\nexport const g = guard;\n",
  // A feature imports its own files and src/lib, not another feature; shared code imports no feature, nor the server.
  'apps/web/src/features/a/page.tsx':
    "import { own } from './own.ts';\nimport { shared } from '../../lib/shared.ts';\nimport { other } from '../b/other.ts';\nexport const page = [own, shared, other];\n",
  'apps/web/src/features/a/own.ts': 'export const own = 1;\n',
  'apps/web/src/features/b/other.ts': 'export const other = 1;\n',
  'apps/web/src/lib/shared.ts':
    "import { other } from '../features/b/other.ts';\nimport { guard } from '../../../server/src/modules/auth/guard.ts';\nexport const shared = [other, guard];\n",
};

describe('the import rules (.dependency-cruiser.cjs)', () => {
  const tree = tempDir('import-rules-');
  afterAll(() => tree.cleanup());

  it('refuse each kind of import they forbid, and only those', () => {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(tree.dir, file)), { recursive: true });
      writeFileSync(path.join(tree.dir, file), text);
    }
    const run = spawnSync(
      process.execPath,
      [
        path.join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'),
        'apps',
        '--config',
        path.join(repoRoot, '.dependency-cruiser.cjs'),
        '--output-type',
        'json',
      ],
      { cwd: tree.dir, encoding: 'utf8', timeout: 30_000 },
    );
    const { summary } = JSON.parse(run.stdout) as {
      summary: { violations: { rule: { name: string }; from: string; to: string }[] };
    };
    const refused = summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`).sort();
    const src = (file: string) => `apps/server/src/${file}`;
    expect(refused).toEqual(
      [
        `gateway-imports-no-module: ${src('gateway/accounts.ts')} -> ${src('modules/auth/guard.ts')}`,
        `module-direction: ${src('modules/billing/bill.ts')} -> ${src('modules/sandbox/types.ts')}`,
        `module-direction: ${src('modules/unlisted/use.ts')} -> ${src('modules/auth/guard.ts')}`,
        `no-circular: ${src('a.ts')} -> ${src('b.ts')}`,
        `payments-import-no-module: ${src('payments/provider.ts')} -> ${src('modules/auth/guard.ts')}`,
        `server-lib-db-stay-low: ${src('lib/low.ts')} -> ${src('modules/jobs/jobs.ts')}`,
        'web-feature-isolation: apps/web/src/features/a/page.tsx -> apps/web/src/features/b/other.ts',
        'web-never-imports-the-server: apps/web/src/lib/shared.ts -> apps/server/src/modules/auth/guard.ts',
        'web-shared-imports-no-feature: apps/web/src/lib/shared.ts -> apps/web/src/features/b/other.ts',
      ].sort(),
    );
  }, 30_000);
});

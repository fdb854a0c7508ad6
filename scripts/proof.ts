// `npm run proof`: the proof suite in one run, then one table of its figures.
//  1–5, 8: the whole API suite on PGlite and PostgreSQL (+ Redis), with the authorisation matrix, fuzzing
//          (PROOF_FUZZ_RUNS, 100 here), webhook chaos, two instances, crash recovery and the security headers among it,
//          its info log collected and then scanned for secrets and card numbers;
//  7:      the build's landing JavaScript budget, axe on every page in both schemes (Playwright), Lighthouse of five pages;
//  6:      60 s of mixed load on PGlite and PostgreSQL beside a bare Fastify hello-world (LOAD_SECONDS).
// Needs PostgreSQL and Redis (TEST_DATABASE_URL, TEST_REDIS_URL; the machine's by default) and Debian's Chromium.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { findSecrets } from '../apps/server/src/test/log-scan.ts';
import { recordProof } from '../apps/server/src/test/proof-results.ts';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.proof');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const logFile = path.join(out, 'api-suite.log');
// This process records figures too (the log scan).
process.env.PROOF_RESULTS_DIR = out;

const env = {
  ...process.env,
  PROOF_RESULTS_DIR: out,
  PROOF_FUZZ_RUNS: process.env.PROOF_FUZZ_RUNS ?? '100',
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  LH_RUNS: process.env.LH_RUNS ?? '1',
};

const steps: { step: string; ok: boolean; seconds: number }[] = [];
function run(step: string, command: string, args: string[], extraEnv: Record<string, string> = {}) {
  console.log(`\n=== ${step}: ${command} ${args.join(' ')}`);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  steps.push({ step, ok: result.status === 0, seconds: Math.round((performance.now() - started) / 1000) });
}

const npx = path.join(root, 'node_modules/.bin');
run('build, with the landing JavaScript budget', 'npm', ['run', 'build']);
run(
  'API suite with the proof tests (1–5, 8)',
  path.join(npx, 'vitest'),
  ['run', '--project', 'api-pglite', '--project', 'api-postgres'],
  {
    PROOF_LOG_FILE: logFile,
  },
);

const e2eLog = path.join(out, 'browser-suite.log');
run('browser suite, with axe on every page in both schemes (7)', path.join(npx, 'playwright'), ['test'], {
  E2E_LOG_FILE: e2eLog,
});

// 8: the whole suite's logs (the API tests' apps and the browser tests' server), scanned.
const log = [logFile, e2eLog].map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : '')).join('\n');
const findings = findSecrets(log);
recordProof(
  'log scan of the API and browser suites',
  {
    lines: log.split('\n').filter(Boolean).length,
    secretsFound: findings.length,
    ...(findings[0] && { first: findings[0] }),
  },
  'both',
);
steps.push({
  step: 'log scan: no secret, token, reset link or card number',
  ok: findings.length === 0 && log.length > 0,
  seconds: 0,
});

run('Lighthouse of five pages (7)', process.execPath, ['bench/lighthouse.ts']);
run('landing bundle (7)', process.execPath, ['bench/landing-size.ts']);
run('mixed load, PGlite and PostgreSQL, beside a hello-world (6)', process.execPath, ['bench/load.ts']);

// One table: every figure the steps recorded, then the steps themselves.
const rows = existsSync(path.join(out, 'results.jsonl'))
  ? readFileSync(path.join(out, 'results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { name: string; database: string; figures: Record<string, unknown> })
  : [];
console.log('\n=== Proof figures\n');
console.log(`| What | Where | Figures |\n| --- | --- | --- |`);
for (const row of rows) {
  const figures = Object.entries(row.figures)
    .map(([key, value]) => `${key}: ${value}`)
    .join('; ');
  console.log(`| ${row.name} | ${row.database} | ${figures} |`);
}
console.log(`\n| Step | Result | Seconds |\n| --- | --- | --- |`);
for (const step of steps) console.log(`| ${step.step} | ${step.ok ? 'passed' : 'FAILED'} | ${step.seconds} |`);
if (steps.some((step) => !step.ok)) process.exitCode = 1;

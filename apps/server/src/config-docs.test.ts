import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { envSchema } from './config-schema.ts';
import { repoRoot, tempDir } from './test/service.ts';

// The configuration is written down three times: the schema (config-schema.ts), the table of docs/configuration.md and
// .env.example. They cannot drift: a setting added to one must be added to the other two.
const schemaNames = Object.keys(envSchema.shape).sort();

/** The variables named in the first column of docs/configuration.md's "## Settings" table. */
function documentedNames(): string[] {
  const text = readFileSync(path.join(repoRoot, 'docs/configuration.md'), 'utf8');
  const start = text.indexOf('\n## Settings\n');
  if (start < 0) throw new Error('docs/configuration.md has no "## Settings" section');
  const end = text.indexOf('\n## ', start + 1);
  return text
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map(([, name]) => name ?? ''))
    .sort();
}

/** The settings of .env.example (`# NAME=default  # meaning`), up to its compose-only part. */
function envExample(): Map<string, string> {
  const text = readFileSync(path.join(repoRoot, '.env.example'), 'utf8');
  const settings = new Map<string, string>();
  for (const line of text.slice(0, text.indexOf('# --- compose.yaml only')).split('\n')) {
    const match = /^# ([A-Z][A-Z0-9_]+)=(\S*)/.exec(line);
    if (match) settings.set(match[1] ?? '', match[2] ?? '');
  }
  return settings;
}

describe('the configuration, written down', () => {
  it("docs/configuration.md's table, .env.example and the schema list the same variables", () => {
    const missing = (names: string[], from: string[]) => from.filter((name) => !names.includes(name));
    const documented = documentedNames();
    const example = [...envExample().keys()].sort();
    expect(missing(documented, schemaNames), 'in config.ts but not in docs/configuration.md').toEqual([]);
    expect(missing(schemaNames, documented), 'in docs/configuration.md but not in config.ts').toEqual([]);
    expect(missing(example, schemaNames), 'in config.ts but not in .env.example').toEqual([]);
    expect(missing(schemaNames, example), 'in .env.example but not in config.ts').toEqual([]);
  });

  it('every default written in .env.example is a value the shop accepts', () => {
    for (const [name, value] of envExample()) {
      if (value === '') continue;
      // Outside production, which would otherwise want Stripe's keys beside each value (its own line too).
      const env = { NODE_ENV: 'development', PAYMENTS_SANDBOX: 'true', [name]: value };
      expect(() => loadConfig(env), `${name}=${value}`).not.toThrow();
    }
  });
});

describe('.env', () => {
  const folder = tempDir('storefront-env-');
  afterAll(() => folder.cleanup());

  it('is read by the server, the job runner, the gateway and migrate; the environment wins over it', () => {
    writeFileSync(
      path.join(folder.dir, '.env'),
      '# a bad value in the file, and one the environment overrides\nLOG_LEVEL=loud\nPORT=abc\n',
    );
    for (const entry of ['main.ts', 'jobs.ts', 'gateway/main.ts', 'migrate.ts']) {
      const run = spawnSync(process.execPath, [path.join(repoRoot, 'apps/server/src', entry)], {
        cwd: folder.dir,
        env: { PATH: process.env.PATH, PORT: '0' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status, entry).toBe(1);
      expect(run.stderr.trim(), entry).toBe(
        'The configuration was refused: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud").',
      );
    }
  }, 60_000);
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { repoRoot } from './service.ts';

// The Dockerfile and compose.yaml, read the way Docker and compose read them, so that tests can run what they describe
// without a container engine.

const dockerfile = () => readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8');

/** The last stage of the Dockerfile: its WORKDIR, ENV, COPY --from=build lines, HEALTHCHECK, CMD and instructions. */
export function dockerRunStage() {
  const text = dockerfile().replace(/\\\n\s*/g, ' ');
  const stages = text.split(/^FROM /m);
  const build = stages.at(-2) ?? '';
  const run = stages.at(-1) ?? '';
  const env: Record<string, string> = {};
  for (const [, pairs] of run.matchAll(/^ENV (.+)$/gm)) {
    for (const [, name, value] of (pairs ?? '').matchAll(/([A-Z_]+)=(\S+)/g)) env[name ?? ''] = value ?? '';
  }
  return {
    buildWorkdir: /^WORKDIR (\S+)$/m.exec(build)?.[1],
    buildPackage: /^RUN .*npm run package/m.test(build),
    workdir: /^WORKDIR (\S+)$/m.exec(run)?.[1],
    env,
    copies: [...run.matchAll(/^COPY --from=build (?:--\S+ )*(\S+) (\S+)$/gm)].map(([, from, to]) => ({ from, to })),
    user: /^USER (\S+)$/m.exec(run)?.[1],
    healthcheck: /^HEALTHCHECK .*CMD (\[.+\])$/m.exec(run)?.[1],
    cmd: JSON.parse(/^CMD (\[.+\])$/m.exec(run)?.[1] ?? '[]') as string[],
    /** Every instruction's keyword, in order (`VOLUME`, `RUN`, ...). */
    instructions: [...run.matchAll(/^([A-Z]+) /gm)].map(([, keyword]) => keyword ?? ''),
  };
}

export interface DockerRun {
  /** `-e NAME=value`, or `-e NAME` (undefined: passed on from the shell's environment). */
  env: Record<string, string | undefined>;
  ports: string[];
  volumes: string[];
  image: string;
}

/** The `docker run` examples in the Dockerfile's opening comment, with their `\` continuations joined. */
export function dockerRunExamples(): DockerRun[] {
  const comment = dockerfile()
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .map((line) => line.replace(/^#\s*/, ''))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return comment
    .split('\n')
    .filter((line) => line.startsWith('docker run '))
    .map((line) => {
      const words = line.split(/\s+/).filter(Boolean).slice(2);
      const run: DockerRun = { env: {}, ports: [], volumes: [], image: '' };
      for (let i = 0; i < words.length; i++) {
        const word = words[i] ?? '';
        const value = words[i + 1] ?? '';
        if (word === '-e' || word === '--env') {
          const [name = '', ...rest] = value.split('=');
          run.env[name] = rest.length > 0 ? rest.join('=') : undefined;
          i++;
        } else if (word === '-p' || word === '--publish') {
          run.ports.push(value);
          i++;
        } else if (word === '-v' || word === '--volume') {
          run.volumes.push(value);
          i++;
        } else if (word === '--restart' || word === '--name') {
          i++;
        } else if (!word.startsWith('-')) {
          run.image = word;
        }
      }
      return run;
    });
}

export interface ComposeService {
  environment?: Record<string, string>;
  ports?: string[];
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  [key: string]: unknown;
}

/** compose.yaml as written, its `<<` merges applied, its `${...}` left as they are. */
export function compose() {
  return parseYaml(readFileSync(path.join(repoRoot, 'compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
    volumes?: object;
  };
}

/**
 * compose.yaml as compose resolves it with `env` (the shell's environment and .env together): `$$`, `${NAME}`,
 * `${NAME:-default}`, `${NAME-default}`, `${NAME:?error}`, `${NAME?error}`, `${NAME:+other}` and `${NAME+other}`. A
 * missing required variable throws compose's error.
 */
export function resolvedCompose(env: Record<string, string | undefined>) {
  const pattern = /\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;
  const interpolate = (text: string) =>
    text.replace(pattern, (_whole, dollar, braced, operator: string | undefined, word = '', bare) => {
      if (dollar) return '$';
      const name: string = braced ?? bare;
      const value = env[name];
      const set = value !== undefined && (operator?.startsWith(':') ? value !== '' : true);
      switch (operator?.replace(':', '')) {
        case '-':
          return set ? (value ?? '') : word;
        case '?':
          if (!set) throw new Error(`required variable ${name} is missing a value: ${word}`);
          return value ?? '';
        case '+':
          return set ? word : '';
        default:
          return value ?? '';
      }
    });
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return interpolate(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
    }
    return node;
  };
  return walk(compose()) as ReturnType<typeof compose>;
}

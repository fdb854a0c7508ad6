import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';

/** Who holds an embedded database, written beside its lock so that the next process can name it. */
interface Owner {
  pid: number;
  host: string;
  command: string;
  since: string;
}

export class DataDirInUse extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirInUse';
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

// A live owner touches its lock every UPDATE_MS; one untouched for STALE_MS is taken over even when its owner cannot be
// asked (another machine sharing the folder, a reused process id). Generous, because PGlite runs on the main thread and
// a long statement delays the touch.
const STALE_MS = 60_000;
const UPDATE_MS = 10_000;

/**
 * Makes this process the one owner of the embedded database in `databaseDir` (PGlite cannot be shared: two processes
 * writing one folder corrupt it), created when missing; a lock left by a process that is gone is taken over at once.
 */
export async function lockDataDir(options: {
  databaseDir: string;
  /** The setting that chose the folder, for the refusal: DATA_DIR, or DATABASE_URL for `pglite:<dir>`. */
  variable: string;
  shown: string;
  /** The refusal sentence's end. */
  hint?: string;
  onCompromised?: (error: Error) => void;
}): Promise<DataDirLock> {
  const { databaseDir } = options;
  mkdirSync(databaseDir, { recursive: true });
  const lockPath = `${databaseDir}.lock`;
  const ownerPath = `${databaseDir}.owner.json`;
  const lockOptions = {
    realpath: false,
    lockfilePath: lockPath,
    stale: STALE_MS,
    update: UPDATE_MS,
    retries: 0,
    onCompromised:
      options.onCompromised ??
      ((error: Error) => {
        console.error(`The lock on ${options.variable} ${options.shown} was lost: ${error.message}`);
      }),
  };
  const take = () => lockfile.lock(databaseDir, lockOptions);

  let unlock: () => Promise<void>;
  try {
    unlock = await take();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const owner = readOwner(ownerPath);
    // A process that has just taken the lock writes its name a moment later: look twice before calling it gone.
    if (owner && isGone(owner) && (await sleep(100).then(() => sameOwner(readOwner(ownerPath), owner)))) {
      rmSync(lockPath, { recursive: true, force: true });
      unlock = await take().catch((again: NodeJS.ErrnoException) => {
        if (again.code === 'ELOCKED') throw new DataDirInUse(inUse(options, readOwner(ownerPath)));
        throw again;
      });
    } else {
      throw new DataDirInUse(inUse(options, owner));
    }
  }
  const me: Owner = {
    pid: process.pid,
    host: os.hostname(),
    command: commandLine(),
    since: new Date().toISOString(),
  };
  writeFileSync(ownerPath, `${JSON.stringify(me)}\n`);
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      rmSync(ownerPath, { force: true });
      await unlock().catch(() => {});
    },
  };
}

function inUse(options: { variable: string; shown: string; hint?: string }, owner: Owner | undefined): string {
  const holder = owner
    ? `process ${owner.pid} (${owner.command}${owner.host === os.hostname() ? '' : ` on ${owner.host}`}, since ${owner.since})`
    : 'another process';
  return (
    `${options.variable} ${options.shown} is in use by ${holder}: the embedded database has one owner, ` +
    `so stop that process first or give this one another ${options.variable}${options.hint ? ` (${options.hint})` : ''}.`
  );
}

function readOwner(file: string): Owner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<Owner>;
    if (typeof owner.pid !== 'number' || typeof owner.host !== 'string') return undefined;
    return {
      pid: owner.pid,
      host: owner.host,
      command: String(owner.command ?? 'unknown'),
      since: String(owner.since ?? 'unknown'),
    };
  } catch {
    return undefined;
  }
}

function sameOwner(a: Owner | undefined, b: Owner): boolean {
  return a !== undefined && a.pid === b.pid && a.host === b.host && a.since === b.since;
}

/** On this machine and no longer running (or it is this very process: a container restarted with the same id). */
function isGone(owner: Owner): boolean {
  if (owner.host !== os.hostname()) return false;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function commandLine(): string {
  const script = process.argv[1] ? path.relative(process.cwd(), process.argv[1]) || process.argv[1] : '';
  return ['node', script, ...process.argv.slice(2)].filter(Boolean).join(' ');
}

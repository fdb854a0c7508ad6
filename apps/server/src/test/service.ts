import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** A fresh folder, removed by `cleanup`. */
export function tempDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Service {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in the output (now or later); rejects when the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** The exit code, or the signal's name that ended it. */
  exited: Promise<number | string>;
  /** Sends a signal to the process itself. */
  signal(signal: NodeJS.Signals): void;
  /** kill -9 of its whole process group, whatever state it is in (cleanup after a failure). */
  kill(): Promise<void>;
}

/**
 * Runs a command as an operator would, in a process group of its own (so that the test can check that nothing of it
 * is left running), with exactly `env` plus PATH.
 */
export function startService(command: string, args: string[], options: { cwd: string; env: Record<string, string> }) {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (data: Buffer) => {
    output += data.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => {
      for (const listener of listeners) listener();
      resolve(code ?? signal ?? 'unknown');
    });
  });
  const service: Service = {
    child,
    output: () => output,
    exited,
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = pattern.exec(output);
          if (found) {
            done();
            resolve(found);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(new Error(`${command} ${args.join(' ')} exited before ${pattern}:\n${output}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${command} ${args.join(' ')}: no ${pattern} within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
    signal: (signal) => {
      child.kill(signal);
    },
    kill: async () => {
      if (child.pid !== undefined && groupAlive(child.pid)) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }
      if (child.exitCode === null && child.signalCode === null) await exited;
    },
  };
  return service;
}

/** Whether any process of the group `pgid` is still running. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether the process `pid` is still running. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The `pid` of the JSON log line whose msg matches `pattern`. */
export function pidOfLine(output: string, pattern: RegExp): number | undefined {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { pid?: number; msg?: string };
      if (entry.msg && pattern.test(entry.msg)) return entry.pid;
    } catch {}
  }
  return undefined;
}

/** A raw HTTP/1.1 connection, to send a request in pieces and read the answer as it arrives. */
export async function rawConnection(port: number): Promise<{
  socket: Socket;
  write(text: string): void;
  /** Everything received so far. */
  received(): string;
  /** Resolves when the server ends the connection, with everything it sent. */
  closed: Promise<string>;
}> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (data: Buffer) => {
    received += data.toString('latin1');
  });
  const closed = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(received));
    socket.on('error', () => {});
  });
  return { socket, write: (text) => socket.write(text), received: () => received, closed };
}

/** Parses one complete HTTP/1.1 answer with a Content-Length, or undefined when it is cut short. */
export function completeAnswer(
  raw: string,
): { status: number; headers: Record<string, string>; body: string } | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const status = Number(statusLine?.split(' ')[1]);
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const body = raw.slice(end + 4);
  const length = Number(headers['content-length'] ?? Number.NaN);
  if (!Number.isFinite(length) || Buffer.byteLength(body, 'latin1') < length) return undefined;
  return { status, headers, body: body.slice(0, length) };
}

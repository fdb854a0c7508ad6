import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Every process a benchmark started: sent SIGTERM when the benchmark exits, whether it ended or failed half-way. */
const owned = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of owned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
});
// Stopped by a signal (Ctrl-C, a CI time-out), Node exits without its 'exit' event unless the signal is handled.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(128 + (os.constants.signals[signal] ?? 0)));
}

/**
 * `spawn`, for a process that must not outlive the benchmark: a start that fails after others have started (a server
 * that never gets healthy, a thrown error) leaves none of them running.
 */
export function spawnOwned(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, options);
  owned.add(child);
  child.once('exit', () => owned.delete(child));
  return child;
}

/**
 * Starts the built app on `port` (in-memory PGlite unless `databaseUrl` is given), its residential gateway on `port + 1`,
 * and waits for its health check. `nodeFlags` go to Node before the server's file (--inspect, V8's flags).
 */
export async function startServer(
  port: number,
  databaseUrl = 'memory://',
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
): Promise<ChildProcess> {
  const server = spawnOwned(process.execPath, [...nodeFlags, 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: process.env.AUTH_SECRET ?? randomBytes(32).toString('base64'),
      LOG_LEVEL: 'warn',
      // No mail leaves a benchmark; PostgreSQL in production would otherwise want SMTP_URL, Stripe's keys, and would
      // seed no demo inventory.
      LOG_EMAILS: 'true',
      PAYMENTS_SANDBOX: 'true',
      SEED_DEMO: 'true',
      GATEWAY_PORT: String(port + 1),
      ...env,
    },
    stdio: 'inherit',
  });
  for (let attempt = 0; attempt < 120; attempt++) {
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return server;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  server.kill('SIGTERM');
  throw new Error(`the server did not become healthy on port ${port}`);
}

/** Sends SIGTERM and waits until the process has exited (before its database is dropped, say). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A free port whose next is free too (the server's gateway listens on port + 1). */
export async function freePair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const next = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      next.once('error', () => resolve(false));
      next.listen(port + 1, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => next.close(resolve));
      return port;
    }
  }
}

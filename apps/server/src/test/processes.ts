import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const serverMain = fileURLToPath(new URL('../main.ts', import.meta.url));
export const gatewayMain = fileURLToPath(new URL('../gateway/main.ts', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM, and the exit code once it exits. */
  stop(): Promise<number | null>;
  /** kill -9: no shutdown hook runs. */
  crash(): Promise<void>;
}

/**
 * A port nobody listens on right now, below the kernel's ephemeral range (32768 and up): a port handed back from
 * `listen(0)` could be handed again to another test's `listen(0)` before the process given it binds it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
}

/**
 * `npm run serve` or `npm run gateway` as its own process; resolves once its output matches `ready` (the match is
 * passed back, for a port it chose itself).
 */
export async function spawnProcess(
  main: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<ServerProcess & { ready: RegExpExecArray }> {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'info', METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${main} did not start:\n${output}`)), 30_000);
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString();
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.stderr?.on('data', (data: Buffer) => {
      output += data.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${main} exited with ${code}:\n${output}`));
    });
  });
  return {
    child,
    ready: match,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      return code as number | null;
    },
    crash: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** `npm run gateway` on a PostgreSQL database, on a port it picks; resolves once it listens. */
export async function spawnGateway(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServerProcess & { port: number }> {
  const gateway = await spawnProcess(
    gatewayMain,
    {
      DATABASE_URL: databaseUrl,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: '0',
      GATEWAY_ALLOW_PRIVATE: 'true',
      GATEWAY_CACHE_MS: '200',
      ...env,
    },
    /residential gateway listening on port (\d+)/,
  );
  return { ...gateway, port: Number(gateway.ready[1]) };
}

// Where the server's memory goes after a proxy load phase through its in-process gateway, idle, after the load and
// 30 s later, split by owner (V8, glibc's heaps and arenas). What it runs and its settings: docs/benchmarks.md, "The
// server's memory after proxy load".
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { KB_PER_GB } from '@storefront/contract';
import autocannon from 'autocannon';
import { createResidentialAccount } from '../apps/server/src/test/residential-account.ts';
import { createBenchDatabase } from './bench-database.ts';
import { freePair, freePort, spawnOwned, startServer, stopProcess } from './start-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const extraEnv = JSON.parse(process.env.BENCH_SERVER_ENV ?? '{}') as Record<string, string>;
const phases = Number(process.env.BENCH_PHASES ?? 1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const execFileAsync = promisify(execFile);

const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The inspector of the server: one evaluation at a time. */
async function inspector(port: number) {
  const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(list[0]?.webSocketDebuggerUrl ?? '');
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const pending = new Map<number, (value: unknown) => void>();
  ws.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  };
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve) => {
      id += 1;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    send,
    close: () => ws.close(),
    evaluate: async (expression: string) =>
      ((await send('Runtime.evaluate', { expression, returnByValue: true })) as { result: { value: unknown } }).result
        .value,
  };
}

const bench = await createBenchDatabase();
const { username, password } = await createResidentialAccount(bench.database.db, { totalKb: 100_000 * KB_PER_GB });
const auth = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const target = spawnOwned(process.execPath, ['bench/target-server.ts'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const targetPort = await new Promise<number>((resolve) => {
  let out = '';
  target.stdout?.on('data', (data: Buffer) => {
    out += data.toString();
    const match = /"port":(\d+)/.exec(out);
    if (match) resolve(Number(match[1]));
  });
});
const port = await freePair();
const inspectPort = await freePort();
const server = await startServer(
  port,
  bench.url,
  {
    GATEWAY_ALLOW_PRIVATE: 'true',
    GATEWAY_HOST: '127.0.0.1',
    METRICS_PORT: String(await freePort()),
    ...extraEnv,
  },
  [`--inspect=127.0.0.1:${inspectPort}`, ...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean)],
).catch(async (error: unknown) => {
  target.kill('SIGTERM');
  await bench.drop();
  throw error;
});
const pid = server.pid ?? 0;
const gatewayPort = port + 1;
const cdp = await inspector(inspectPort);

async function snapshot(label: string) {
  const value = (await cdp.evaluate(
    `JSON.stringify({ m: process.memoryUsage(), s: process.getBuiltinModule('node:v8').getHeapSpaceStatistics()
      .map((s) => [s.space_name, s.space_size, s.space_used_size]) })`,
  )) as string;
  const { m, s } = JSON.parse(value) as { m: Record<string, number>; s: [string, number, number][] };
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(rollup)?.[1] ?? 0) / 1024;
  // Per mapping: the brk heap (glibc's main arena), anonymous mappings in 64 MB-aligned regions (glibc's thread arenas
  // start at a multiple of HEAP_MAX_SIZE = 64 MB), and other anonymous mappings (V8's pages, big mmap'd mallocs).
  const smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n');
  let current = '';
  let start = 0n;
  const sums = { brk: 0, arena64: 0, otherAnon: 0, files: 0 };
  const arenaStarts = new Set<bigint>();
  for (const line of smaps) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      start = BigInt(`0x${head[1]}`);
      const name = head[5] ?? '';
      current = name === '[heap]' ? 'brk' : name === '' ? 'anon' : name.startsWith('/') ? 'files' : 'other';
      if (current === 'anon' && start % (64n << 20n) === 0n) arenaStarts.add(start);
      continue;
    }
    const rss = /^Rss:\s+(\d+)/.exec(line);
    if (rss) {
      const kb = Number(rss[1]);
      if (current === 'brk') sums.brk += kb;
      else if (current === 'files') sums.files += kb;
      else if (current === 'anon') {
        if (arenaStarts.has(start)) sums.arena64 += kb;
        else sums.otherAnon += kb;
      }
    }
  }
  const f = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  console.log(
    `${label.padEnd(22)} rss ${f(m.rss ?? 0)} heapTotal ${f(m.heapTotal ?? 0)} heapUsed ${f(m.heapUsed ?? 0)} ` +
      `external ${f(m.external ?? 0)} arrayBuffers ${f(m.arrayBuffers ?? 0)} | smaps Anonymous ${field('Anonymous').toFixed(0)} ` +
      `brk ${(sums.brk / 1024).toFixed(0)} arenas64 ${(sums.arena64 / 1024).toFixed(0)} (${arenaStarts.size}) ` +
      `otherAnon ${(sums.otherAnon / 1024).toFixed(0)} files ${(sums.files / 1024).toFixed(0)}`,
  );
  console.log(
    `${''.padEnd(22)} spaces (size/used MB): ${s
      .filter(([, size]) => size > 0)
      .map(([name, size, used]) => `${name.replace('_space', '')} ${f(size)}/${f(used)}`)
      .join(', ')}`,
  );
}

function download(head: string, bytes: number) {
  return new Promise<void>((resolve, reject) => {
    const socket = net.connect(gatewayPort, '127.0.0.1', () => socket.write(head));
    let received = 0;
    socket.on('data', (data: Buffer) => {
      received += data.length;
    });
    socket.on('error', reject);
    socket.on('close', () => (received < bytes ? reject(new Error(`only ${received}`)) : resolve()));
  });
}

async function loadPhase() {
  const bytes = 100_000_000;
  const get = (p: string) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\nConnection: close\r\n\r\n`;
  let peak = rssMb(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 200);
  const cpuBefore = cpuSeconds(pid);
  await download(
    get(`http://127.0.0.1:${targetPort}/bytes?n=${bytes}`).replace(
      '\r\n\r\n',
      `\r\nProxy-Authorization: ${auth}\r\n\r\n`,
    ),
    bytes,
  );
  const cpuMid = cpuSeconds(pid);
  await download(
    `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nProxy-Authorization: ${auth}\r\n\r\n${get(`/bytes?n=${bytes}`)}`,
    bytes,
  );
  const cpuAfterConnect = cpuSeconds(pid);
  console.log(
    `  100 MB downloads, CPU s/GB: plain ${((cpuMid - cpuBefore) * 10).toFixed(2)}, CONNECT ${((cpuAfterConnect - cpuMid) * 10).toFixed(2)}`,
  );
  const cpu: string[] = [];
  for (const way of ['keepalive', 'connect', 'socks']) {
    const before = cpuSeconds(pid);
    const { stdout } = await execFileAsync(
      process.execPath,
      [
        'bench/gateway-client.ts',
        JSON.stringify({
          way,
          port: gatewayPort,
          targetPort,
          username,
          password,
          seconds: 10,
          connections: 50,
          path: '/bytes?n=10240',
        }),
      ],
      { cwd: root },
    );
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { requests: number };
    cpu.push(
      `${way} ${result.requests} req ${(((cpuSeconds(pid) - before) * 1e6) / Math.max(1, result.requests)).toFixed(0)} µs`,
    );
  }
  clearInterval(sampler);
  console.log(`  proxy CPU a request: ${cpu.join(', ')}; peak RSS (0.2 s samples) ${peak.toFixed(0)} MB`);
}

async function pricing(label: string) {
  const before = cpuSeconds(pid);
  const result = await autocannon({ url: `http://127.0.0.1:${port}/api/pricing`, connections: 10, duration: 10 });
  const used = cpuSeconds(pid) - before;
  console.log(
    `  GET /api/pricing (${label}): ${result.requests.total} requests, ${((used * 1e6) / result.requests.total).toFixed(0)} µs CPU a request, non-2xx ${result.non2xx}`,
  );
}

try {
  console.log(
    `env ${JSON.stringify(extraEnv)}; load average ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
  await sleep(8000);
  await snapshot('idle');
  for (let phase = 1; phase <= phases; phase++) {
    await loadPhase();
    await snapshot(`phase ${phase} end`);
    await sleep(30_000);
    await snapshot(`phase ${phase} + 30 s`);
  }
  await pricing('after load');
  await sleep(5000);
  await snapshot('after pricing + 5 s');
  await cdp.send('HeapProfiler.collectGarbage');
  await sleep(1000);
  await snapshot('after a full GC');
  if (process.env.BENCH_TRIM) {
    execFileSync('gdb', ['-p', String(pid), '-batch', '-ex', 'call (int) malloc_trim(0)'], { stdio: 'ignore' });
    await sleep(500);
    await snapshot('after malloc_trim(0)');
  }
  console.log(
    `load average at the end ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
} finally {
  cdp.close();
  await stopProcess(server);
  target.kill('SIGTERM');
  await bench.drop();
}

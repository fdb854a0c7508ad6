// The residential gateway side by side with squid, interleaved, in one run. Each in its own process:
// the target web server, the gateway alone (`npm run gateway`, on PostgreSQL), the server with its gateway inside, squid
// (Debian's package, basic auth; installed when missing, as CI installs Chromium), and the load generator; and, for
// where Node.js itself stands, a bare proxy in plain Node (bench/node-proxy.ts: Node's HTTP server and client, as the
// gateway uses them, its tunnels reading through Node's streams): one table, each gateway figure's CPU and rate set
// against bare Node's.
//   Download: one 100 MB answer (BENCH_MB) through each way, MB/s and CPU seconds per GB in the proxy's process.
//   Small requests: 50 clients (BENCH_CLIENTS) fetching 10 KB for 10 s (BENCH_SECONDS) on kept-alive plain HTTP, and
//   with a new connection for each through CONNECT and SOCKS 5: requests/s, p50/p99 ms, CPU µs per request.
//   Memory: RSS idle and with 2,000 open idle tunnels (BENCH_TUNNELS), of each proxy and of the release's gateway
//   (`node . gateway` in a folder `npm run package` writes, as operators and compose.yaml run it); RSS before, at the peak
//   (sampled every 0.2 s) and 30 s after each proxy's load phase (its downloads and small requests) of each round.
//   BENCH_ONLY=memory measures the idle and tunnel memory alone, without the load rounds (a minute instead of seven).
// The gateway alone runs as `npm run gateway` does, the server as `npm start` does (V8's defaults); CPU is read from
// /proc/<pid>/stat of the proxy's process (squid's password helper, a process of its own, is not counted; it is asked
// once per login and remembered 2 hours).
// Rounds (BENCH_ROUNDS, at least 3) take every way in turn, so a slow minute of the machine falls on all of them; the
// table gives medians. The machine's load average is printed with the figures: other work skews them.
import { type ChildProcess, execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { KB_PER_GB } from '@storefront/contract';
import { createResidentialAccount } from '../apps/server/src/test/residential-account.ts';
import { createBenchDatabase } from './bench-database.ts';
import { freePair, freePort, spawnOwned, startServer } from './start-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const megabytes = Number(process.env.BENCH_MB ?? 100);
const rounds = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3));
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const clients = Number(process.env.BENCH_CLIENTS ?? 50);
const tunnelCount = Number(process.env.BENCH_TUNNELS ?? 2000);
const memoryOnly = process.env.BENCH_ONLY === 'memory';
const SQUID = '/usr/sbin/squid';
const execFileAsync = promisify(execFile);

function startProcess(command: string, args: string[], env: Record<string, string>, ready: RegExp, cwd = root) {
  const child = spawnOwned(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise<{ child: ChildProcess; match: RegExpExecArray }>((resolve, reject) => {
    const seen = (data: Buffer) => {
      output += data.toString();
      const match = ready.exec(output);
      if (match) resolve({ child, match });
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.on('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${output}`)));
  });
}

async function waitForPort(port: number) {
  for (let attempt = 0; attempt < 300; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`nothing listens on ${port}`);
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
/** User and system CPU seconds of a process so far. */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime, in clock ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const mb = (value: number) => `${value.toFixed(0)} MB`;
/** A proxy's RSS idle and with the open idle tunnels. */
const tunnelLine = (tunnels: Map<string, { idle: number; loaded: number }>, name: string) => {
  const t = tunnels.get(name);
  return (
    `  ${name.padEnd(24)} idle ${mb(t?.idle ?? 0)}, ` +
    `with ${tunnelCount.toLocaleString('en-US')} open idle tunnels ${mb(t?.loaded ?? 0)}`
  );
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Squid from Debian with basic auth on a port of its own; installed first when missing (root, as in CI). */
async function startSquid(username: string, password: string) {
  if (spawnSync(SQUID, ['-v']).status !== 0) {
    console.log('squid is missing: apt-get install -y squid');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'squid'], { stdio: 'inherit', env });
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-squid-'));
  // Run as root, squid and its password helper drop to the proxy user, who must read the folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  // On stdin: a password may start with '-', which openssl would take for an option.
  const hash = execFileSync('openssl', ['passwd', '-apr1', '-stdin'], { input: `${password}\n` })
    .toString()
    .trim();
  writeFileSync(path.join(dir, 'passwords'), `${username}:${hash}\n`);
  writeFileSync(
    path.join(dir, 'squid.conf'),
    [
      `http_port 127.0.0.1:${port}`,
      `pid_filename ${dir}/squid.pid`,
      `cache_log ${dir}/cache.log`,
      'access_log none',
      'cache deny all',
      'cache_mem 8 MB',
      'max_filedescriptors 16384',
      `coredump_dir ${dir}`,
      `auth_param basic program /usr/lib/squid/basic_ncsa_auth ${dir}/passwords`,
      'auth_param basic realm proxy',
      // Enough helpers that a burst of new logins is not refused for want of one; an answer is then kept 2 hours.
      'auth_param basic children 32 startup=8 idle=4',
      'auth_param basic credentialsttl 2 hours',
      'acl customers proxy_auth REQUIRED',
      'http_access allow customers',
      'http_access deny all',
      'shutdown_lifetime 1 seconds',
      '',
    ].join('\n'),
  );
  const child = spawnOwned(SQUID, ['-N', '-d1', '-f', path.join(dir, 'squid.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (data: Buffer) => {
    log += data.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await waitForPort(port).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}: squid did not start:\n${log}`);
  });
  return {
    port,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One download of `bytes` through a raw socket that first writes `head`; the seconds it took. */
function download(port: number, head: string | Buffer[], bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const steps = typeof head === 'string' ? [Buffer.from(head)] : head;
    const socket = net.connect(port, '127.0.0.1', () => socket.write(steps.shift() ?? Buffer.alloc(0)));
    let received = 0;
    let answers = 0;
    socket.on('data', (data: Buffer) => {
      received += data.length;
      // SOCKS: each handshake answer asks for the next message.
      if (steps.length > 0 && answers++ >= 0) socket.write(steps.shift() ?? Buffer.alloc(0));
    });
    socket.on('error', reject);
    socket.on('close', () => {
      if (received < bytes) reject(new Error(`only ${received} of ${bytes} bytes arrived through port ${port}`));
      else resolve((performance.now() - started) / 1000);
    });
  });
}

interface ClientResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

/** One run of the load generator in its own process (the harness stays free to sample the proxy's memory meanwhile). */
async function runClient(options: Record<string, unknown>): Promise<ClientResult> {
  const { stdout } = await execFileAsync(
    process.execPath,
    [path.join(root, 'bench/gateway-client.ts'), JSON.stringify(options)],
    { cwd: root },
  );
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as ClientResult;
}

/** `count` CONNECT tunnels to a server that holds its connections open; each answered, then left idle. */
async function openTunnels(port: number, sinkPort: number, auth: string, count: number) {
  const sockets: net.Socket[] = [];
  for (let start = 0; start < count; start += 200) {
    await Promise.all(
      Array.from(
        { length: Math.min(200, count - start) },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = net.connect(port, '127.0.0.1', () =>
              socket.write(`CONNECT 127.0.0.1:${sinkPort} HTTP/1.1\r\nProxy-Authorization: ${auth}\r\n\r\n`),
            );
            socket.once('data', (data: Buffer) =>
              data.toString().includes(' 200') ? resolve() : reject(new Error(data.toString())),
            );
            socket.on('error', reject);
            sockets.push(socket);
          }),
      ),
    );
  }
  return sockets;
}

const bench = await createBenchDatabase();
const { username, password } = await createResidentialAccount(bench.database.db, { totalKb: 100_000 * KB_PER_GB });
const auth = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const target = await startProcess(process.execPath, ['bench/target-server.ts'], {}, /"port":(\d+)/);
const targetPort = Number(target.match[1]);
const sink = net.createServer((socket) => socket.on('error', () => {}));
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
const sinkPort = (sink.address() as net.AddressInfo).port;

/** The limit of open connections per source address the gateways run with in the bench, all of it from 127.0.0.1. */
const OPEN_PER_IP = tunnelCount + 4 * clients;
const gatewayEnv = async (port: number) => ({
  NODE_ENV: 'production',
  DATABASE_URL: bench.url,
  GATEWAY_HOST: '127.0.0.1',
  GATEWAY_PORT: String(port),
  GATEWAY_ALLOW_PRIVATE: 'true',
  LOG_LEVEL: 'info',
  // Every client here is one address: its open tunnels and the load's connections are past the default limit.
  GATEWAY_MAX_CONNECTIONS_PER_IP: String(OPEN_PER_IP),
  // Its metrics listener on, as deployed, on a port of its own (the default 9464 may be taken on a shared machine).
  METRICS_PORT: String(await freePort()),
});
const alonePort = await freePort();
/** As `npm run gateway` runs it: V8's young generation held small, which otherwise grows under this load and stays. */
const YOUNG = '--max-semi-space-size=4';
const alone = await startProcess(
  process.execPath,
  [YOUNG, 'apps/server/src/gateway/main.ts'],
  await gatewayEnv(alonePort),
  /gateway listening on port/,
);
// The release's gateway, bundled and without TypeScript at run time, as `node . gateway` runs it (no flags).
const releaseDir = mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-release-'));
execFileSync(process.execPath, ['scripts/package.ts', '--out', releaseDir], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const releasedPort = await freePort();
const released = await startProcess(
  process.execPath,
  ['.', 'gateway'],
  await gatewayEnv(releasedPort),
  /gateway listening on port/,
  releaseDir,
);
const serverPort = await freePair();
// As `npm start` and `npm run serve` run it: V8's defaults.
const server = await startServer(serverPort, bench.url, {
  GATEWAY_ALLOW_PRIVATE: 'true',
  GATEWAY_MAX_CONNECTIONS_PER_IP: String(OPEN_PER_IP),
  GATEWAY_HOST: '127.0.0.1',
  METRICS_PORT: String(await freePort()),
});
const squid = await startSquid(username, password);
/** The bare Node proxy (bench/node-proxy.ts), its tunnels reading through Node's streams: Node's own floor. */
const nodeStreams = await (async () => {
  const port = await freePort();
  const { child } = await startProcess(
    process.execPath,
    ['bench/node-proxy.ts'],
    { PROXY_PORT: String(port), PROXY_AUTH: auth },
    /node proxy listening/,
  );
  return { port, child };
})();

interface Way {
  name: string;
  port: number;
  pid: number;
  /** Which ways of carrying this proxy offers. */
  modes: ('plain' | 'connect' | 'socks')[];
}
const ways: Way[] = [
  { name: 'gateway alone', port: alonePort, pid: alone.child.pid ?? 0, modes: ['plain', 'connect', 'socks'] },
  { name: 'gateway in server', port: serverPort + 1, pid: server.pid ?? 0, modes: ['plain', 'connect', 'socks'] },
  { name: 'squid', port: squid.port, pid: squid.pid, modes: ['plain', 'connect'] },
  { name: 'bare Node', port: nodeStreams.port, pid: nodeStreams.child.pid ?? 0, modes: ['plain', 'connect'] },
];
/** Measured for memory only (its carrying is the same code as the gateway alone's). */
const memoryWays: Way[] = [
  ways[0] as Way,
  { name: 'gateway alone, release', port: releasedPort, pid: released.child.pid ?? 0, modes: [] },
  ...ways.slice(1),
];
const targetPid = target.child.pid ?? 0;
const modeNames = { plain: 'plain HTTP', connect: 'CONNECT', socks: 'SOCKS 5' } as const;
const smallNames = {
  keepalive: 'keep-alive plain HTTP',
  connect: 'new CONNECT each',
  socks: 'new SOCKS 5 each',
} as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  await sleep(3000);
  console.log(`load average at start: ${load()} (2 cores, shared with other work)`);
  const tunnels = new Map<string, { idle: number; loaded: number }>();
  for (const way of memoryWays) {
    const idle = rssMb(way.pid);
    const sockets = await openTunnels(way.port, sinkPort, auth, tunnelCount);
    await sleep(1000);
    tunnels.set(way.name, { idle, loaded: rssMb(way.pid) });
    for (const socket of sockets) socket.destroy();
  }
  if (memoryOnly) {
    console.log('\nmemory (RSS):');
    for (const way of memoryWays) console.log(tunnelLine(tunnels, way.name));
  } else await loadRounds(tunnels);
} finally {
  // The gateways write their last metered bytes as they stop: the database is dropped once they have.
  const exited = (child: ChildProcess) =>
    child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
  const stopped = [exited(alone.child), exited(released.child), exited(server)];
  nodeStreams.child.kill('SIGTERM');
  alone.child.kill('SIGTERM');
  released.child.kill('SIGTERM');
  server.kill('SIGTERM');
  target.child.kill('SIGTERM');
  sink.close();
  await squid.stop();
  await Promise.race([Promise.all(stopped), sleep(15_000)]);
  rmSync(releaseDir, { recursive: true, force: true });
  await bench.drop();
}

/** The load rounds, then every figure and the table. */
async function loadRounds(tunnels: Map<string, { idle: number; loaded: number }>) {
  const bytes = megabytes * 1_000_000;
  const get = (pathName: string, close = true) =>
    `GET ${pathName} HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}${close ? '\r\nConnection: close' : ''}\r\n\r\n`;
  const port2 = Buffer.alloc(2);
  port2.writeUInt16BE(targetPort);
  const user = Buffer.from(username);
  const pass = Buffer.from(password);
  const heads = {
    plain: () =>
      get(`http://127.0.0.1:${targetPort}/bytes?n=${bytes}`).replace(
        '\r\n\r\n',
        `\r\nProxy-Authorization: ${auth}\r\n\r\n`,
      ),
    connect: () =>
      `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nProxy-Authorization: ${auth}\r\n\r\n${get(`/bytes?n=${bytes}`)}`,
    socks: () => [
      Buffer.from([5, 1, 2]),
      Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]),
      Buffer.concat([Buffer.from([5, 1, 0, 1, 127, 0, 0, 1]), port2]),
      Buffer.from(get(`/bytes?n=${bytes}`)),
    ],
  };
  const results = new Map<string, { rate: number[]; cpu: number[]; p50: number[]; p99: number[] }>();
  const record = (key: string, values: { rate: number; cpu: number; p50?: number; p99?: number }) => {
    const entry = results.get(key) ?? { rate: [], cpu: [], p50: [], p99: [] };
    entry.rate.push(values.rate);
    entry.cpu.push(values.cpu);
    if (values.p50 !== undefined) entry.p50.push(values.p50);
    if (values.p99 !== undefined) entry.p99.push(values.p99);
    results.set(key, entry);
  };
  /** Per way, per round: RSS before its load phase, the highest seen during it, and 30 s after it ended. */
  const phases = new Map<string, { before: number; peak: number; after: number }[]>(ways.map((way) => [way.name, []]));
  /** The reading 30 s after a way's last phase (awaited before its next phase starts). */
  const afterReadings = new Map<string, Promise<void>>();
  const loads: string[] = [];

  for (let round = 0; round < rounds; round++) {
    loads.push(load());
    const took = await download(targetPort, get(`/bytes?n=${bytes}`), bytes);
    record('download|direct', { rate: megabytes / took, cpu: 0 });
    const direct = await runClient({
      way: 'keepalive',
      port: targetPort,
      targetPort,
      seconds,
      connections: clients,
      path: '/bytes?n=10240',
    });
    record('small|direct|keepalive', { rate: direct.rps, cpu: 0, p50: direct.p50, p99: direct.p99 });
    for (const way of ways) {
      await afterReadings.get(way.name);
      // One load phase: the downloads, then the small requests, through this proxy.
      const phase = { before: rssMb(way.pid), peak: 0, after: 0 };
      phase.peak = phase.before;
      const sampler = setInterval(() => {
        phase.peak = Math.max(phase.peak, rssMb(way.pid));
      }, 200);
      for (const mode of way.modes) {
        const before = cpuSeconds(way.pid);
        const took = await download(way.port, heads[mode](), bytes);
        record(`download|${way.name}|${mode}`, {
          rate: megabytes / took,
          cpu: (cpuSeconds(way.pid) - before) / (bytes / 1e9),
        });
      }
      for (const mode of ['keepalive', 'connect', 'socks'] as const) {
        if (mode === 'socks' && !way.modes.includes('socks')) continue;
        if (mode === 'keepalive' && !way.modes.includes('plain')) continue;
        const before = cpuSeconds(way.pid);
        const result = await runClient({
          way: mode,
          port: way.port,
          targetPort,
          username,
          password,
          seconds,
          connections: clients,
          path: '/bytes?n=10240',
        });
        const cpu = ((cpuSeconds(way.pid) - before) * 1e6) / Math.max(1, result.requests);
        if (result.failures > 0) console.log(`  (${way.name}, ${smallNames[mode]}: ${result.failures} failed)`);
        record(`small|${way.name}|${mode}`, { rate: result.rps, cpu, p50: result.p50, p99: result.p99 });
      }
      clearInterval(sampler);
      phase.peak = Math.max(phase.peak, rssMb(way.pid));
      phases.get(way.name)?.push(phase);
      afterReadings.set(
        way.name,
        sleep(30_000).then(() => {
          phase.after = rssMb(way.pid);
        }),
      );
    }
    console.log(`round ${round + 1} of ${rounds} done (load average ${load()})`);
  }
  await Promise.all(afterReadings.values());
  const endLoad = load();

  const row = (key: string) => results.get(key) ?? { rate: [0], cpu: [0], p50: [0], p99: [0] };
  console.log(
    `\nload averages (1, 5, 15 min) at the start of each round: ${loads.join(' | ')}; at the end: ${endLoad}`,
  );
  console.log(`\none ${megabytes} MB download (medians of ${rounds} rounds; CPU in the proxy's process):`);
  console.log(
    `  direct                        ${median(row('download|direct').rate).toFixed(0).padStart(6)} MB/s  ` +
      `(${row('download|direct')
        .rate.map((value) => value.toFixed(0))
        .join(', ')})`,
  );
  for (const way of ways) {
    for (const mode of way.modes) {
      const r = row(`download|${way.name}|${mode}`);
      console.log(
        `  ${`${way.name}, ${modeNames[mode]}`.padEnd(29)} ${median(r.rate).toFixed(0).padStart(6)} MB/s  ` +
          `${median(r.cpu).toFixed(2)} CPU s/GB  (${r.rate.map((value) => value.toFixed(0)).join(', ')})`,
      );
    }
  }
  console.log(`\n${clients} clients x 10 KB for ${seconds} s (medians of ${rounds} rounds):`);
  const small = (label: string, key: string) => {
    const r = row(key);
    console.log(
      `  ${label.padEnd(40)} ${median(r.rate).toFixed(0).padStart(6)}/s  p50 ${median(r.p50).toFixed(1)} ms  ` +
        `p99 ${median(r.p99).toFixed(1)} ms` +
        (r.cpu.some((value) => value > 0) ? `  ${median(r.cpu).toFixed(0)} µs CPU a request` : '') +
        `  (${r.rate.map((value) => value.toFixed(0)).join(', ')})`,
    );
  };
  small('direct, keep-alive', 'small|direct|keepalive');
  for (const way of ways) {
    if (way.modes.includes('plain')) small(`${way.name}, ${smallNames.keepalive}`, `small|${way.name}|keepalive`);
    small(`${way.name}, ${smallNames.connect}`, `small|${way.name}|connect`);
    if (way.modes.includes('socks')) small(`${way.name}, ${smallNames.socks}`, `small|${way.name}|socks`);
  }
  console.log('\nmemory (RSS):');
  for (const way of memoryWays) {
    console.log(tunnelLine(tunnels, way.name));
    for (const [index, phase] of (phases.get(way.name) ?? []).entries()) {
      console.log(
        `  ${''.padEnd(24)} round ${index + 1}: before the load ${mb(phase.before)}, at its peak ${mb(phase.peak)}, 30 s after ${mb(phase.after)}`,
      );
    }
  }
  console.log(`target server CPU ${cpuSeconds(targetPid).toFixed(1)} s`);

  // One table: medians; each gateway figure with its CPU over bare Node's (Node's own floor: lower is better) and its
  // rate over bare Node's. Bare Node and squid speak no SOCKS 5: the gateway's SOCKS 5 rows are set beside their CONNECT.
  const ratio = (ours: number, theirs: number) => (theirs > 0 ? (ours / theirs).toFixed(2) : '–');
  const columns = ['bare Node', 'gateway alone', 'gateway in server', 'squid'];
  const gateways = new Set(['gateway alone', 'gateway in server']);
  const lines = [`| | direct | ${columns.join(' | ')} |`, `|---|---|${columns.map(() => '---').join('|')}|`];
  type Row = { rate: number[]; cpu: number[]; p50: number[]; p99: number[] };
  const cells = (kind: 'download' | 'small', mode: string, figure: (r: Row) => string) => {
    const theirs = (name: string) => (mode === 'socks' && !gateways.has(name) ? 'connect' : mode);
    const floorRow = row(`${kind}|bare Node|${theirs('bare Node')}`);
    return columns.map((name) => {
      const r = results.get(`${kind}|${name}|${theirs(name)}`);
      if (!r) return '';
      if (!gateways.has(name)) return figure(r);
      return (
        `${figure(r)} (CPU ${ratio(median(r.cpu), median(floorRow.cpu))}×, ` +
        `rate ${ratio(median(r.rate), median(floorRow.rate))}× bare Node)`
      );
    });
  };
  const downloadFigure = (r: Row) => `${median(r.rate).toFixed(0)} MB/s, ${median(r.cpu).toFixed(2)} CPU s/GB`;
  const smallFigure = (r: Row) =>
    `${median(r.rate).toFixed(0)}/s, ${median(r.cpu).toFixed(0)} µs CPU each, p99 ${median(r.p99).toFixed(1)} ms`;
  const directRate = median(row('download|direct').rate).toFixed(0);
  for (const mode of ['plain', 'connect', 'socks'] as const) {
    const label = `one ${megabytes} MB download, ${modeNames[mode]}${mode === 'socks' ? ' (bare Node, squid: CONNECT)' : ''}`;
    lines.push(`| ${label} | ${directRate} MB/s | ${cells('download', mode, downloadFigure).join(' | ')} |`);
  }
  const directSmall = `${median(row('small|direct|keepalive').rate).toFixed(0)}/s`;
  for (const mode of ['keepalive', 'connect', 'socks'] as const) {
    const label = `${clients} clients × 10 KB, ${smallNames[mode]}${mode === 'socks' ? ' (bare Node, squid: CONNECT)' : ''}`;
    lines.push(
      `| ${label} | ${mode === 'keepalive' ? directSmall : ''} | ${cells('small', mode, smallFigure).join(' | ')} |`,
    );
  }
  const memory = (name: string) => {
    const t = tunnels.get(name);
    return `${mb(t?.idle ?? 0)} / ${mb(t?.loaded ?? 0)}`;
  };
  lines.push(
    `| RSS idle / ${tunnelCount.toLocaleString('en-US')} idle tunnels | | ${columns
      .map((name) =>
        name === 'gateway alone' ? `${memory(name)} (release: ${memory('gateway alone, release')})` : memory(name),
      )
      .join(' | ')} |`,
  );
  const afterLoad = (name: string) => {
    const list = phases.get(name) ?? [];
    const first = list[0];
    const last = list[list.length - 1];
    const peak = Math.max(...list.map((phase) => phase.peak));
    return `${mb(first?.before ?? 0)} / ${mb(peak)} / ${mb(last?.after ?? 0)}`;
  };
  lines.push(`| RSS before the first load / peak / 30 s after the last | | ${columns.map(afterLoad).join(' | ')} |`);
  console.log(
    `\nmedians of ${rounds} interleaved rounds; load average ${loads[0]} at the start, ${endLoad} at the end:\n`,
  );
  console.log(lines.join('\n'));
}

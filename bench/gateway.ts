// The residential gateway against the same traffic without it (issue 15): the gateway (`npm run gateway`, on PostgreSQL),
// the target web server and this load generator each in its own process, measured in the same run.
//   throughput: a 100 MB download direct and through the gateway (CONNECT tunnel and plain HTTP), best of 5 each;
//   latency: 1,000 small requests one after another on a kept-alive connection, direct and through the gateway;
//   memory: the gateway's resident memory idle and with 1,000 open tunnels (measured first, on a fresh process).
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_MB (100), BENCH_REQUESTS (1000).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { KB_PER_GB } from '@storefront/contract';
import { basicAuth } from '../apps/server/src/test/proxy-client.ts';
import { createResidentialAccount } from '../apps/server/src/test/residential-account.ts';
import { createBenchDatabase } from './bench-database.ts';

const root = path.resolve(import.meta.dirname, '..');
const megabytes = Number(process.env.BENCH_MB ?? 100);
const requests = Number(process.env.BENCH_REQUESTS ?? 1000);
const gatewayPort = Number(process.env.BENCH_GATEWAY_PORT ?? 4380);

function startProcess(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString();
      const match = ready.exec(output);
      if (match) resolve({ child, match });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
  });
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? 0;

/** Reads a whole answer from a raw socket that first writes `head`; resolves with the bytes read and the seconds taken. */
function rawDownload(port: number, head: string, expected: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    let received = 0;
    socket.on('data', (data: Buffer) => {
      received += data.length;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      if (received < expected) reject(new Error(`only ${received} of ${expected} bytes arrived`));
      else resolve((performance.now() - started) / 1000);
    });
  });
}

const bench = await createBenchDatabase();
const { username, password } = await createResidentialAccount(bench.database.db, { totalKb: 1000 * KB_PER_GB });
const auth = basicAuth(`${username}-country-us-session-bench001-duration-60`, password);

const target = await startProcess(['bench/target-server.ts'], {}, /"port":(\d+)/);
const targetPort = Number(target.match[1]);
const gateway = await startProcess(
  ['apps/server/src/gateway/main.ts'],
  {
    NODE_ENV: 'test',
    DATABASE_URL: bench.url,
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: String(gatewayPort),
    GATEWAY_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'info',
  },
  /gateway listening on port (\d+)/,
);
const gatewayPid = gateway.child.pid ?? 0;

try {
  // Memory first, before any large transfer has grown the heap: 1,000 open tunnels, each established and idle.
  const idle = rssMb(gatewayPid);
  const sockets: net.Socket[] = [];
  await Promise.all(
    Array.from(
      { length: 1000 },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = net.connect(gatewayPort, '127.0.0.1', () =>
            socket.write(`CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nProxy-Authorization: ${auth}\r\n\r\n`),
          );
          socket.once('data', () => resolve());
          socket.on('error', reject);
          sockets.push(socket);
        }),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const loaded = rssMb(gatewayPid);
  console.log(
    `memory: gateway RSS idle ${idle.toFixed(0)} MB, with 1,000 open tunnels ${loaded.toFixed(0)} MB (${(((loaded - idle) * 1024) / 1000).toFixed(0)} KB a tunnel)`,
  );
  for (const socket of sockets) socket.destroy();

  const bytes = megabytes * 1_000_000;
  const get = (pathName: string) =>
    `GET ${pathName} HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\nConnection: close\r\n\r\n`;
  const ways = {
    direct: () => rawDownload(targetPort, get(`/bytes?n=${bytes}`), bytes),
    'gateway, CONNECT': () =>
      rawDownload(
        gatewayPort,
        `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nProxy-Authorization: ${auth}\r\n\r\n${get(`/bytes?n=${bytes}`)}`,
        bytes,
      ),
    'gateway, HTTP': () =>
      rawDownload(
        gatewayPort,
        get(`http://127.0.0.1:${targetPort}/bytes?n=${bytes}`).replace(
          '\r\n\r\n',
          `\r\nProxy-Authorization: ${auth}\r\n\r\n`,
        ),
        bytes,
      ),
  };
  const seconds: Record<string, number[]> = { direct: [], 'gateway, CONNECT': [], 'gateway, HTTP': [] };
  await ways.direct();
  for (let round = 0; round < 5; round++) {
    for (const [name, run] of Object.entries(ways)) seconds[name]?.push(await run());
  }
  const rate = (name: string) => megabytes / Math.min(...(seconds[name] ?? [1]));
  console.log(`throughput, ${megabytes} MB download on loopback (best of 5):`);
  for (const name of Object.keys(ways)) {
    console.log(
      `  ${name.padEnd(18)} ${rate(name).toFixed(0).padStart(6)} MB/s   ratio to direct ${(rate(name) / rate('direct')).toFixed(2)}`,
    );
  }

  // Latency: small answers one after another, on one kept-alive connection each way.
  const timeRequests = async (agent: http.Agent, options: http.RequestOptions) => {
    const times: number[] = [];
    for (let index = 0; index < requests + 50; index++) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const request = http.request({ ...options, agent }, (response) => {
          response.resume();
          response.on('end', () => resolve());
        });
        request.on('error', reject);
        request.end();
      });
      if (index >= 50) times.push(performance.now() - started);
    }
    return times;
  };
  const direct = await timeRequests(new http.Agent({ keepAlive: true, maxSockets: 1 }), {
    host: '127.0.0.1',
    port: targetPort,
    path: '/bytes?n=100',
  });
  const proxied = await timeRequests(new http.Agent({ keepAlive: true, maxSockets: 1 }), {
    host: '127.0.0.1',
    port: gatewayPort,
    path: `http://127.0.0.1:${targetPort}/bytes?n=100`,
    headers: { 'proxy-authorization': auth, host: `127.0.0.1:${targetPort}` },
  });
  console.log(`latency, ${requests} small requests one after another (ms):`);
  console.log(`  direct            p50 ${median(direct).toFixed(2)}  p99 ${percentile(direct, 99).toFixed(2)}`);
  console.log(`  through gateway   p50 ${median(proxied).toFixed(2)}  p99 ${percentile(proxied, 99).toFixed(2)}`);
  console.log(
    `  added             p50 ${(median(proxied) - median(direct)).toFixed(2)}  p99 ${(percentile(proxied, 99) - percentile(direct, 99)).toFixed(2)}   (target: p99 under 5 ms)`,
  );
} finally {
  gateway.child.kill('SIGTERM');
  target.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await bench.drop();
}

// The load generator of bench/gateway.ts, in a process of its own (so that the harness's own work is not counted as the
// client's). One run: `node bench/gateway-client.ts '<json>'` prints one JSON line with the requests made, the rate,
// the latency percentiles and the failures.
//   way: 'keepalive'  plain HTTP on kept-alive connections (absolute-form through a proxy, origin-form direct; autocannon)
//        'connect'    a new connection and CONNECT tunnel for each request (what a client fetching HTTPS pages does)
//        'socks'      a new connection and SOCKS 5 handshake (username and password) for each request
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

interface Run {
  way: 'keepalive' | 'connect' | 'socks';
  port: number;
  targetPort: number;
  /** Basic credentials for the proxy; none: direct (keepalive only). */
  username?: string;
  password?: string;
  seconds: number;
  connections: number;
  path: string;
}

const run = JSON.parse(process.argv[2] ?? '{}') as Run;
const authHeader =
  run.username === undefined
    ? undefined
    : `Basic ${Buffer.from(`${run.username}:${run.password ?? ''}`).toString('base64')}`;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? 0;

if (run.way === 'keepalive') {
  const proxied = authHeader !== undefined;
  const result = await autocannon({
    url: `http://127.0.0.1:${run.port}`,
    connections: run.connections,
    duration: run.seconds,
    requests: [
      {
        method: 'GET',
        path: proxied ? `http://127.0.0.1:${run.targetPort}${run.path}` : run.path,
        headers: {
          host: `127.0.0.1:${run.targetPort}`,
          ...(authHeader ? { 'proxy-authorization': authHeader } : {}),
        },
      },
    ],
  });
  console.log(
    JSON.stringify({
      requests: result.requests.total,
      rps: result.requests.total / run.seconds,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failures: result.errors + result.non2xx + result.timeouts,
    }),
  );
} else {
  const times: number[] = [];
  let failures = 0;
  const deadline = performance.now() + run.seconds * 1000;
  const request = `GET ${run.path} HTTP/1.1\r\nHost: 127.0.0.1:${run.targetPort}\r\nConnection: close\r\n\r\n`;
  const user = Buffer.from(run.username ?? '');
  const pass = Buffer.from(run.password ?? '');
  const port = Buffer.alloc(2);
  port.writeUInt16BE(run.targetPort);
  const socksRequest = Buffer.concat([Buffer.from([5, 1, 0, 1, 127, 0, 0, 1]), port]);
  const once = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(run.port, '127.0.0.1');
      let stage = run.way === 'connect' ? 'head' : 'method';
      let buffered = Buffer.alloc(0);
      let body = 0;
      socket.on('connect', () => {
        if (run.way === 'connect') {
          socket.write(
            `CONNECT 127.0.0.1:${run.targetPort} HTTP/1.1\r\nHost: 127.0.0.1:${run.targetPort}\r\n` +
              `Proxy-Authorization: ${authHeader}\r\n\r\n`,
          );
        } else socket.write(Buffer.from([5, 1, 2]));
      });
      socket.on('data', (chunk: Buffer) => {
        if (stage === 'body') {
          body += chunk.length;
          return;
        }
        buffered = Buffer.concat([buffered, chunk]);
        if (stage === 'head') {
          const end = buffered.indexOf('\r\n\r\n');
          if (end < 0) return;
          if (!buffered.subarray(0, 12).toString().includes(' 200')) return socket.destroy();
          body = buffered.length - end - 4;
          stage = 'body';
          socket.write(request);
        } else if (stage === 'method' && buffered.length >= 2) {
          buffered = buffered.subarray(2);
          socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
          stage = 'auth';
        } else if (stage === 'auth' && buffered.length >= 2) {
          if (buffered[1] !== 0) return socket.destroy();
          buffered = buffered.subarray(2);
          socket.write(socksRequest);
          stage = 'reply';
        } else if (stage === 'reply' && buffered.length >= 10) {
          if (buffered[1] !== 0) return socket.destroy();
          body = buffered.length - 10;
          stage = 'body';
          socket.write(request);
        }
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve(stage === 'body' && body > 0));
    });
  await Promise.all(
    Array.from({ length: run.connections }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        if (await once()) times.push(performance.now() - started);
        else failures++;
      }
    }),
  );
  console.log(
    JSON.stringify({
      requests: times.length,
      rps: times.length / run.seconds,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      failures,
    }),
  );
}

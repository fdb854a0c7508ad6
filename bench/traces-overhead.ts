// What traces cost when they are on (OTEL_EXPORTER_OTLP_ENDPOINT set), and that they cost nothing when off: GET
// /api/pricing and a customer's GET /api/orders with 10,000 proxies, on two servers built from the same code and sharing
// one PostgreSQL database, one without the endpoint (the SDK never loaded) and one exporting every span to a local
// OTLP/HTTP receiver that takes them as a collector would. Each server in its own process, autocannon in this one,
// slices taken in turn (bench/side-by-side.ts). No target: the figure is what an operator pays for turning traces on
// (every request sampled: OTEL_TRACES_SAMPLER=parentbased_traceidratio with OTEL_TRACES_SAMPLER_ARG lowers it).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBenchDatabase } from './bench-database.ts';
import { orderWithProxies, signedIn } from './shop.ts';
import { sideBySide } from './side-by-side.ts';
import { startServer } from './start-server.ts';

const PLAIN_PORT = 3331;
const TRACED_PORT = 3333;
let spansBytes = 0;
const receiver = createServer((request, response) => {
  request.on('data', (chunk: Buffer) => {
    spansBytes += chunk.length;
  });
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
// Both servers read one session table, so they must sign sessions alike.
process.env.AUTH_SECRET ??= randomBytes(32).toString('base64');
const bench = await createBenchDatabase();
const plain = await startServer(PLAIN_PORT, bench.url, { METRICS_PORT: '0' });
const traced = await startServer(TRACED_PORT, bench.url, { METRICS_PORT: '0', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
try {
  const customer = await signedIn(`http://127.0.0.1:${PLAIN_PORT}`, bench.database.db, 'traces@example.com');
  await orderWithProxies(bench.database.db, customer.userId, 10_000);
  const headers = { cookie: customer.cookie };
  await sideBySide({ url: `http://127.0.0.1:${PLAIN_PORT}/api/pricing`, pid: plain.pid }, [
    {
      label: 'GET /api/pricing traced, against not',
      url: `http://127.0.0.1:${TRACED_PORT}/api/pricing`,
      pid: traced.pid,
    },
  ]);
  await sideBySide({ url: `http://127.0.0.1:${PLAIN_PORT}/api/orders`, headers, pid: plain.pid }, [
    {
      label: 'GET /api/orders (10,000 proxies) traced, against not',
      url: `http://127.0.0.1:${TRACED_PORT}/api/orders`,
      headers,
      pid: traced.pid,
    },
  ]);
  console.log(`spans received: ${(spansBytes / 1024 / 1024).toFixed(1)} MB of OTLP/protobuf`);
} finally {
  plain.kill();
  traced.kill();
  receiver.close();
  await bench.drop();
}

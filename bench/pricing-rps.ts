// GET /api/pricing requests per second against a bare Fastify hello-world on the same machine, one after the other.
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { startServer } from './start-server.ts';

const duration = Number(process.env.BENCH_SECONDS ?? 10);

async function measure(url: string): Promise<number> {
  const result = await autocannon({ url, connections: 50, duration, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const hello = Fastify();
hello.get('/', async () => ({ hello: 'world' }));
await hello.listen({ port: 3301, host: '127.0.0.1' });
const helloRps = await measure('http://127.0.0.1:3301/');
await hello.close();

const server = await startServer(3302, process.env.BENCH_DATABASE_URL);
try {
  const pricingRps = await measure('http://127.0.0.1:3302/api/pricing');
  console.log(`bare Fastify hello-world: ${helloRps.toFixed(0)} req/s`);
  console.log(
    `GET /api/pricing (${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}): ${pricingRps.toFixed(0)} req/s`,
  );
  console.log(`ratio: ${(pricingRps / helloRps).toFixed(2)} (target at least 0.50)`);
} finally {
  server.kill('SIGTERM');
}

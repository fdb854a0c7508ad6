// What the Prometheus metrics cost the hot paths (within 5 %): GET /api/pricing and a customer's GET
// /api/orders with 10,000 proxies, on two servers built from the same code and sharing one PostgreSQL database, one
// with METRICS_PORT=0 (no request timing, no listener) and one with metrics on and scraped every second as Prometheus
// would. Each server in its own process, autocannon in this one, slices taken in turn (bench/side-by-side.ts).
import { randomBytes } from 'node:crypto';
import { createBenchDatabase } from './bench-database.ts';
import { orderWithProxies, signedIn } from './shop.ts';
import { sideBySide } from './side-by-side.ts';
import { startServer } from './start-server.ts';

const PLAIN_PORT = 3321;
const METRICS_PORT = 3323;
const SCRAPE_PORT = 9499;
// Both servers read one session table, so they must sign sessions alike.
process.env.AUTH_SECRET ??= randomBytes(32).toString('base64');
const bench = await createBenchDatabase();
const plain = await startServer(PLAIN_PORT, bench.url, { METRICS_PORT: '0' });
const measured = await startServer(METRICS_PORT, bench.url, { METRICS_PORT: String(SCRAPE_PORT) });
const scrape = () => fetch(`http://127.0.0.1:${SCRAPE_PORT}/metrics`).then((answer) => answer.text());
const scraper = setInterval(() => void scrape().catch(() => {}), 1000);
try {
  const customer = await signedIn(`http://127.0.0.1:${PLAIN_PORT}`, bench.database.db, 'metrics@example.com');
  await orderWithProxies(bench.database.db, customer.userId, 10_000);
  const headers = { cookie: customer.cookie };
  await sideBySide({ url: `http://127.0.0.1:${PLAIN_PORT}/api/pricing`, pid: plain.pid }, [
    {
      label: 'GET /api/pricing with metrics, against without',
      url: `http://127.0.0.1:${METRICS_PORT}/api/pricing`,
      pid: measured.pid,
      target: 0.95,
    },
  ]);
  await sideBySide({ url: `http://127.0.0.1:${PLAIN_PORT}/api/orders`, headers, pid: plain.pid }, [
    {
      label: 'GET /api/orders (10,000 proxies) with metrics, against without',
      url: `http://127.0.0.1:${METRICS_PORT}/api/orders`,
      headers,
      pid: measured.pid,
      target: 0.95,
    },
  ]);
  const text = await scrape();
  console.log(
    text
      .split('\n')
      .filter((line) => /^http_request_duration_seconds_count\{method="GET",route="\/api\/(pricing|orders)"/.test(line))
      .join('\n'),
  );
} finally {
  clearInterval(scraper);
  plain.kill();
  measured.kill();
  await bench.drop();
}

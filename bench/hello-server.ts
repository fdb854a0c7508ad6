// The reference for the side-by-side benchmarks: a bare Fastify hello-world in its own process, on the port given.
// With a URL after the port, the same bare Fastify answers `/` with that URL's answer, fetched once at start: its body
// and every header but the connection's own (what the framework itself costs for exactly those bytes and headers).
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 3301);
const replayUrl = process.argv[3];
const app = Fastify();
if (replayUrl) {
  const original = await fetch(replayUrl, { headers: { 'accept-encoding': 'identity' } });
  const body = Buffer.from(await original.arrayBuffer());
  const connectionHeaders = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
  const headers = Object.fromEntries([...original.headers].filter(([name]) => !connectionHeaders.has(name)));
  app.get('/', (_request, reply) => {
    reply.headers(headers).send(body);
  });
} else {
  app.get('/', async () => ({ hello: 'world' }));
}
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));

// The reference for the side-by-side benchmarks: a bare Fastify hello-world in its own process, on the port given.
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 3301);
const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));

// GET /api/pricing and two authenticated small reads (/api/user/auth, /api/orders/usage) against a bare Fastify
// hello-world: each server in its own process, autocannon in this one, same settings, same run (bench/side-by-side.ts).
import { eq } from 'drizzle-orm';
import { users } from '../apps/server/src/db/schema.ts';
import { createBenchDatabase } from './bench-database.ts';
import { LOAD, report, requestsPerSecond, startHelloWorld } from './side-by-side.ts';
import { startServer } from './start-server.ts';

const HELLO_PORT = 3301;
const PORT = 3302;
const base = `http://127.0.0.1:${PORT}`;
const bench = await createBenchDatabase();
const hello = await startHelloWorld(HELLO_PORT);
const server = await startServer(PORT, bench.url);
try {
  const credentials = { email: 'rps@example.com', password: 'Str0ng!pass' };
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ ...credentials, name: 'rps' }),
  });
  const { user } = (await signUp.json()) as { user: { id: string } };
  // Confirmed here rather than through the mailed link (there is no session before it).
  await bench.database.db.update(users).set({ emailVerified: true }).where(eq(users.id, user.id));
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(credentials),
  });
  // Every cookie the sign-in sets, as a browser would send them back (the session token and, with the cookie cache, its
  // signed copy of the session).
  const cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');

  console.log(
    `side by side: ${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up, ${LOAD.seconds} s measured, each server in its own process`,
  );
  const reference = await requestsPerSecond(`http://127.0.0.1:${HELLO_PORT}/`);
  const pricing = await requestsPerSecond(`${base}/api/pricing`);
  report('GET /api/pricing (PostgreSQL)', pricing, reference, 0.8);
  report(
    'GET /api/user/auth (signed in)',
    await requestsPerSecond(`${base}/api/user/auth`, { cookie }),
    reference,
    0.5,
  );
  report(
    'GET /api/orders/usage (signed in)',
    await requestsPerSecond(`${base}/api/orders/usage`, { cookie }),
    reference,
    0.5,
  );
  const again = await requestsPerSecond(`http://127.0.0.1:${HELLO_PORT}/`);
  console.log(`hello-world again at the end: ${again.toFixed(0)} req/s (the machine's drift over the run)`);
} finally {
  server.kill('SIGTERM');
  hello.kill('SIGTERM');
  await bench.drop();
}

// GET /api/pricing and two authenticated small reads (/api/user/auth, /api/orders/usage) beside a bare Fastify
// hello-world: each server in its own process, autocannon in this one, same settings, same run, in short slices taken
// in turn (bench/side-by-side.ts), with each server's CPU time an answer. The ratios are a reference, not targets: the
// shop's speed is judged on a big shop's data and on what a user waits for. Beside them, the pricing answer replayed by
// a bare Fastify (the same bytes and headers, no database, hooks or logger): what the answer itself costs.
import { eq } from 'drizzle-orm';
import { residentialAccounts, users } from '../apps/server/src/db/schema.ts';
import { createBenchDatabase } from './bench-database.ts';
import { sideBySide, startHelloWorld } from './side-by-side.ts';
import { startServer, stopProcess } from './start-server.ts';

const HELLO_PORT = 3301;
const PORT = 3302;
const REPLAY_PORT = 3304;
const base = `http://127.0.0.1:${PORT}`;
const bench = await createBenchDatabase();
const hello = await startHelloWorld(HELLO_PORT);
const server = await startServer(PORT, bench.url);
const replay = await startHelloWorld(REPLAY_PORT, `${base}/api/pricing`);
try {
  const credentials = { email: 'rps@example.com', password: 'Str0ng!pass' };
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ ...credentials, name: 'rps' }),
  });
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status}`);
  // Confirmed here rather than through the mailed link (there is no session before it, and the answer names no account).
  const [user] = await bench.database.db
    .update(users)
    .set({ emailVerified: true })
    .where(eq(users.email, credentials.email))
    .returning({ id: users.id });
  if (!user) throw new Error('no account for the bench customer');
  // A customer who bought data, so that /api/orders/usage answers with an account as it does for them.
  await bench.database.db
    .insert(residentialAccounts)
    .values({ userId: user.id, username: 'resbench0001', password: 'bench-password', totalKb: 10 * 1_024_000 });
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

  const pid = server.pid;
  await sideBySide({ url: `http://127.0.0.1:${HELLO_PORT}/`, pid: hello.pid }, [
    { label: 'GET /api/pricing (PostgreSQL)', url: `${base}/api/pricing`, pid },
    {
      label: 'the pricing answer replayed by a bare Fastify',
      url: `http://127.0.0.1:${REPLAY_PORT}/`,
      pid: replay.pid,
    },
    { label: 'GET /api/user/auth (signed in)', url: `${base}/api/user/auth`, headers: { cookie }, pid },
    {
      label: 'GET /api/orders/usage (signed in)',
      url: `${base}/api/orders/usage`,
      headers: { cookie },
      pid,
    },
  ]);
  // Our answer against the same bytes and headers from a bare Fastify, in turn.
  await sideBySide({ url: `http://127.0.0.1:${REPLAY_PORT}/`, pid: replay.pid, name: "the bare Fastify replay's" }, [
    { label: 'GET /api/pricing against its replay', url: `${base}/api/pricing`, pid },
  ]);
} finally {
  // Stopped before the database is dropped under them (the drop would end their connections).
  await Promise.all([server, hello, replay].map(stopProcess));
  await bench.drop();
}

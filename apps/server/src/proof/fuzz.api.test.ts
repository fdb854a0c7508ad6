import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { DISABLED_AUTH_PATHS } from '../modules/auth/auth.ts';
import { fuzzedValue, hostileString, type JsonSchema, jsonSchemaOf } from '../test/arbitraries.ts';
import { changedTables, databaseFingerprint } from '../test/fingerprint.ts';
import { recordProof } from '../test/proof-results.ts';
import { authEndpoints } from '../test/route-table.ts';
import { callApi, createTestApp, type Method, signUpCustomer, type TestApp } from '../test/test-app.ts';

/** Runs per route: a handful in the everyday suite, more with PROOF_FUZZ_RUNS (npm run proof uses 100). */
const RUNS = Number(process.env.PROOF_FUZZ_RUNS ?? 12);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What a stack trace or an internal path looks like in an answer. */
const LEAK = /\bat \S+ \(|node_modules\/|\/src\/[\w/-]+\.ts|\.ts:\d+:\d+|ZodError|PostgresError|error: syntax error/;

type Role = 'visitor' | 'customer' | 'admin';

interface FuzzTarget {
  method: string;
  url: string;
  body?: JsonSchema;
  query?: JsonSchema;
  params?: JsonSchema;
}

function fuzzTargets(t: TestApp): FuzzTarget[] {
  const fastify = t.app.routeTable
    .filter((route) => !route.url.startsWith('/api/auth/') && !route.url.endsWith('*'))
    .map((route) => ({
      method: route.method,
      url: route.url,
      body: jsonSchemaOf(route.schema.body),
      query: jsonSchemaOf(route.schema.querystring),
      params: jsonSchemaOf(route.schema.params),
    }));
  const authTargets = authEndpoints(t)
    .filter((endpoint) => !DISABLED_AUTH_PATHS.includes(endpoint.url.slice('/api/auth'.length)))
    .map((endpoint) => ({
      method: endpoint.method,
      url: endpoint.url,
      body: jsonSchemaOf(endpoint.body),
      query: jsonSchemaOf(endpoint.query),
    }));
  return [...fastify, ...authTargets];
}

const text = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** A path parameter as it would reach the URL: from the schema, or anything at all. */
const paramValue = (schema: JsonSchema | undefined) =>
  fc.oneof(fuzzedValue(schema), hostileString).map((value) => encodeURIComponent(text(value)).slice(0, 2000));

function queryString(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return value === undefined ? '' : `?${encodeURIComponent(text(value)).slice(0, 4000)}`;
  }
  const search = new URLSearchParams();
  for (const [key, item] of Object.entries(value)) {
    search.append(key, typeof item === 'string' ? item : (JSON.stringify(item) ?? ''));
  }
  const encoded = search.toString().slice(0, 8000);
  return encoded ? `?${encoded}` : '';
}

describe('fuzzing: every route with bodies, queries and path parameters from its schema and past it', () => {
  let t: TestApp;
  let targets: FuzzTarget[] = [];
  const cookies: Record<Role, string> = { visitor: '', customer: '', admin: '' };
  const figures = { routes: 0, requests: 0, refused: 0, status5xx: 0, leaks: 0, changedByRefusal: 0 };

  /** A new signed-in customer (or administrator), for when a fuzzed call ended the last one's session. */
  async function freshSession(role: Exclude<Role, 'visitor'>) {
    const person = await signUpCustomer(t, `fuzz-${role}-${randomUUID().slice(0, 8)}@example.com`);
    if (role === 'admin') {
      await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, person.id));
    }
    cookies[role] = person.cookie;
  }

  async function stillSignedIn(role: Role) {
    if (role === 'visitor') return;
    const me = await t.app.inject({ url: '/api/user/auth', headers: { cookie: cookies[role] } });
    const user = (me.json() as { user: { role?: string } | null }).user;
    if (!user || (role === 'admin' && user.role !== 'admin')) await freshSession(role);
  }

  beforeAll(async () => {
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_IP: '1000000',
      AUTH_RATE_LIMIT_PER_EMAIL: '1000000',
      AUTH_RATE_LIMIT_PER_ACCOUNT: '1000000',
      CHECKOUT_RATE_LIMIT_PER_USER: '1000000',
      API_KEY_RATE_LIMIT_PER_MINUTE: '1000000',
    });
    await freshSession('customer');
    await freshSession('admin');
    targets = fuzzTargets(t);
  });
  afterAll(async () => {
    recordProof('fuzzing', { ...figures, runsPerRoute: RUNS });
    await t?.close();
  });

  it('finds the routes to fuzz', () => {
    expect(targets.length).toBeGreaterThan(80);
  });

  /** The fingerprint taken after a refused call, which changed nothing: the next call's "before". */
  let unchanged: Record<string, string> | undefined;

  /** One call; every answer is checked the same way. */
  async function check(role: Role, method: string, url: string, payload: string | undefined, contentType?: string) {
    const before = unchanged ?? (await databaseFingerprint(t.database.db));
    unchanged = undefined;
    const answer = await callApi(t, method as Method, url, {
      cookie: cookies[role],
      payload,
      ...(contentType && { headers: { 'content-type': contentType } }),
    });
    figures.requests++;
    const where = `${method} ${url.slice(0, 200)} as ${role} (${payload?.slice(0, 200) ?? 'no body'})`;
    const notBuilt = answer.statusCode === 503 && answer.body.includes('npm run build');
    if (answer.statusCode >= 500 && !notBuilt) {
      figures.status5xx++;
      throw new Error(`${where} answered ${answer.statusCode}: ${answer.body.slice(0, 300)}`);
    }
    const type = String(answer.headers['content-type'] ?? '');
    if (/json|html|text\/plain/.test(type) && LEAK.test(answer.body)) {
      figures.leaks++;
      throw new Error(`${where} leaked internals: ${answer.body.slice(0, 300)}`);
    }
    if (answer.statusCode >= 400) {
      figures.refused++;
      const after = await databaseFingerprint(t.database.db);
      const changed = changedTables(before, after);
      unchanged = after;
      if (changed.length > 0) {
        figures.changedByRefusal++;
        throw new Error(`${where} was refused (${answer.statusCode}) but changed ${changed.join(', ')}`);
      }
    } else {
      await stillSignedIn(role);
      // A write that succeeded may have started work in the background (an admin's stock change checks the alerts, a
      // delivery sends its e-mails): it ends here, so that the next call's fingerprint is taken after it.
      if (method !== 'GET') {
        await t.app.alerts.check();
        await t.mailsSettled();
      }
    }
  }

  it('never answers 5xx, never shows a stack trace, and a refused call changes nothing', async () => {
    for (const target of targets) {
      figures.routes++;
      const roleFor: Role = target.url.includes('/admin') ? 'admin' : 'customer';
      const request = fc.record({
        role: fc.constantFrom<Role>('visitor', roleFor, roleFor),
        paramValues: fc.array(paramValue(target.params), { minLength: 3, maxLength: 3 }),
        query: fc.option(fuzzedValue(target.query), { nil: undefined }),
        body: fuzzedValue(target.body),
        rawBody: fc.option(hostileString, { freq: 8, nil: undefined }),
      });
      const outcome = await fc.check(
        fc.asyncProperty(request, async ({ role, paramValues, query, body, rawBody }) => {
          let index = 0;
          const path = target.url.replace(/:[A-Za-z]+/g, () => paramValues[index++] || 'x');
          const payload = WRITES.has(target.method) ? (rawBody ?? JSON.stringify(body)) : undefined;
          await check(role, target.method, path + queryString(query), payload);
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
      // The failing call, described short (fast-check's own report prints whole megabyte-long values).
      if (outcome.failed) throw outcome.errorInstance;
    }
  }, 600_000);

  it('refuses 1 MB and 10 MB bodies, and bodies that are not JSON, on every route that takes a body', async () => {
    const oneMb = JSON.stringify({ name: 'x'.repeat(1_048_576) });
    const tenMb = JSON.stringify(Array.from({ length: 10 }, () => 'y'.repeat(1_048_576)));
    for (const target of targets.filter((route) => WRITES.has(route.method))) {
      const path = target.url.replace(/:[A-Za-z]+/g, 'x');
      const role: Role = target.url.includes('/admin') ? 'admin' : 'customer';
      await check(role, target.method, path, oneMb);
      await check(role, target.method, path, tenMb);
      await check(role, target.method, path, '{"unclosed": ', 'application/json');
      await check(role, target.method, path, 'name=x&email=y', 'application/x-www-form-urlencoded');
      await check(role, target.method, path, '<xml/>', 'text/xml');
    }
  }, 600_000);
});

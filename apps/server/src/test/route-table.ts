import { createAuth } from '../modules/auth/auth.ts';
import type { TestApp } from './test-app.ts';

export interface AuthEndpoint {
  method: string;
  /** The path as a client calls it, under /api/auth. */
  url: string;
  /** better-auth's zod schemas of what it accepts. */
  body: unknown;
  query: unknown;
}

/**
 * better-auth's HTTP endpoints as the app's configuration makes them (plugins and providers included), read from
 * `auth.api`: the app routes them all through one `/api/auth/*` route, so its route table does not list them.
 */
export function authEndpoints(t: TestApp): AuthEndpoint[] {
  const auth = createAuth({
    config: t.config,
    db: t.database.db,
    wakeMailer: () => {},
    logger: t.app.log,
    secret: 'read-the-route-table-only-never-used',
  });
  return Object.values(auth.api).flatMap((endpoint) => {
    const { path, options } = endpoint as {
      path?: string;
      options?: { method?: string | string[]; body?: unknown; query?: unknown };
    };
    if (!path) return []; // server-only calls have no path and no HTTP route
    return [options?.method ?? 'GET'].flat().map((method) => ({
      method,
      url: `/api/auth${path}`,
      body: options?.body,
      query: options?.query,
    }));
  });
}

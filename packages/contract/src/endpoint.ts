import type { z } from 'zod';
import { pathTo } from './paths.ts';

/**
 * One call of the product's API, defined once: the server declares its route from it (apps/server/src/lib/route.ts),
 * the web app calls it through it (apps/web/src/lib/api-client.ts) and the proof suite's authorisation matrix takes
 * who may call it from it (apps/server/src/proof/route-matrix.ts). See docs/decisions/2026-11-25-api-defined-once.md.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call it; the server's guard follows from it. */
export type Access =
  /** Anyone, signed in or not. */
  | 'public'
  /** A signed-in session of any role (a visitor gets 401). */
  | 'customer'
  /** A session or a personal API key (a visitor gets 401); `keyInQuery` also takes the key as `?key=`. */
  | 'reader'
  /** A session, and only the customer's own object: everyone else gets 404, administrators included. */
  | 'owner'
  /** Administrators only (a visitor gets 401, a customer 403); declared under /api/admin. */
  | 'admin'
  /** Anyone who holds the unguessable id in the address (a printable invoice); an unknown id is a 404. */
  | 'capability';

/** Where a call is and who may call it (api/routes.ts: no schemas, so that a page can call without loading zod). */
export interface Route {
  method: Method;
  /** The address under /api, with `:name` for each parameter: `/api-keys/:id`. */
  path: string;
  access: Access;
  /** With `reader`: the key may also come as `?key=` (links a tool loads by address). */
  keyInQuery?: true;
}

/** The rest of a call: its reference text, what it takes and what it answers. */
export interface EndpointDetails {
  /** For the API reference (/api/docs). */
  tags: readonly string[];
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The status of a successful answer; 204 has no body. */
  status: 200 | 201 | 204;
  /** The successful answer's body (absent with 204). */
  response?: z.ZodType;
  /** Its other answers, for the reference and the server's serializer: a 304, a 503 with a body, refusals' shape. */
  answers?: Readonly<Partial<Record<number | '4xx' | '5xx', z.ZodType>>>;
}

export type Endpoint = Route & EndpointDetails;

/** Defines an endpoint from its route and details, keeping their literal types for the server and the client. */
export function endpoint<const R extends Route, const D extends EndpointDetails>(route: R, details: D): R & D {
  return { ...route, ...details };
}

type InputOf<E, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: infer S extends z.ZodType }
  ? z.input<S>
  : undefined;

/** What a caller sends: the path's parameters, the query and the body, each only where the endpoint has one. */
export type ParamsOf<E extends Endpoint> = InputOf<E, 'params'>;
export type QueryOf<E extends Endpoint> = InputOf<E, 'query'>;
export type BodyOf<E extends Endpoint> = InputOf<E, 'body'>;

type Part<Name extends string, T> = undefined extends T ? { [K in Name]?: T } : { [K in Name]: T };

/** What a call sends: each of params, query and body is required where the endpoint has one and absent otherwise. */
export type CallInput<E extends Endpoint> = Part<'params', ParamsOf<E>> &
  Part<'query', QueryOf<E>> &
  Part<'body', BodyOf<E>>;

/** What a successful call answers (nothing for 204). */
export type AnswerOf<E extends Endpoint> = E extends { response: infer S extends z.ZodType } ? z.output<S> : undefined;

/** The endpoint's address under /api with its parameters filled in: `/api-keys/ak_1`. */
export function addressOf(path: string, params?: Record<string, string | number>, query?: object): string {
  for (const [, name] of path.matchAll(/:(\w+)/g)) {
    const value = params?.[name ?? ''];
    if (value === undefined || value === '') throw new Error(`${path} needs its parameter ${name}`);
  }
  const filled = pathTo(path, params ?? {});
  const text = Object.entries(query ?? {})
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return text ? `${filled}?${text}` : filled;
}

/** `GET /api/api-keys/:id`: how Fastify's route table and the authorisation matrix name a route. */
export function routeKeyOf({ method, path }: Pick<Endpoint, 'method' | 'path'>): string {
  return `${method} /api${path}`;
}

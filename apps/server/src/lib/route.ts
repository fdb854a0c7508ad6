import type { Endpoint } from '@storefront/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';

type SchemaPart<E, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: infer S } ? S : undefined;
type SuccessPart<E> = E extends { response: infer S; status: infer C extends number } ? { [P in C]: S } : unknown;
type AnswersPart<E> = E extends { answers: infer A } ? A : unknown;
type ResponsePart<E> = SuccessPart<E> & AnswersPart<E>;

/**
 * How a read that an API key may make is called, for the reference (the schemes are declared in plugins/api-docs.ts):
 * a session or a key as a bearer token, and the key in the query where the endpoint takes it there.
 */
const READER_SECURITY = [{ session: [] }, { apiKey: [] }];
const READER_IN_QUERY_SECURITY = [{ apiKeyInQuery: [] }, { apiKey: [] }, { session: [] }];

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * The two guards an endpoint's access may ask for, as lib states them: modules/auth/guards.ts makes them (its `Guards`
 * has these and more), and each module passes its own in.
 */
export interface RouteGuards {
  /** For `customer` and `owner`: a signed-in session. */
  requireUser(request: FastifyRequest, reply?: FastifyReply): Promise<void>;
  /** For `reader`: a session or a personal API key (in the query where the endpoint takes it there). */
  requireReader(request: FastifyRequest, reply?: FastifyReply, options?: { keyInQuery?: boolean }): Promise<void>;
}

/** The guard an endpoint's `access` asks for; none where the context (admin) or nobody (public) guards it. */
function guardOf(endpoint: Endpoint, guards: RouteGuards | undefined): Guard | undefined {
  if (endpoint.access === 'public' || endpoint.access === 'capability' || endpoint.access === 'admin') return undefined;
  if (!guards)
    throw new Error(`${endpoint.method} ${endpoint.path} is for ${endpoint.access}s: declare it with guards`);
  if (endpoint.access === 'reader') {
    const keyInQuery = endpoint.keyInQuery === true;
    return (request, reply) => guards.requireReader(request, reply, { keyInQuery });
  }
  // customer and owner: a signed-in session (the handler answers 404 for another's object).
  return (request, reply) => guards.requireUser(request, reply);
}

/**
 * The Fastify route options of an endpoint of the contract: method, address, validation and reference schemas, and
 * the guard its access asks for. The module adds its handler (and any limit of its own):
 * `api.route({ ...routeOf(endpoints.createApiKey, guards), handler })`. Administrators' endpoints are guarded by the
 * admin context's hook (modules/admin/admin-api.ts), which refuses any route declared in it outside /api/admin.
 */
export function routeOf<const E extends Endpoint>(endpoint: E, guards?: RouteGuards) {
  const guard = guardOf(endpoint, guards);
  // Only the parts the endpoint has: Fastify warns (FSTWRN001) about a schema key that is there but undefined.
  const schema = {
    tags: [...endpoint.tags],
    summary: endpoint.summary,
    ...(endpoint.description && { description: endpoint.description }),
    ...(endpoint.params && { params: endpoint.params }),
    ...(endpoint.query && { querystring: endpoint.query }),
    ...(endpoint.body && { body: endpoint.body }),
    ...((endpoint.response || endpoint.answers) && {
      response: { ...(endpoint.response && { [endpoint.status]: endpoint.response }), ...endpoint.answers },
    }),
    ...(endpoint.access === 'reader' && {
      security: endpoint.keyInQuery ? READER_IN_QUERY_SECURITY : READER_SECURITY,
    }),
  } as {
    tags: string[];
    summary: string;
    description?: string;
    params: SchemaPart<E, 'params'>;
    querystring: SchemaPart<E, 'query'>;
    body: SchemaPart<E, 'body'>;
    response: ResponsePart<E>;
    security?: { [scheme: string]: string[] }[];
  };
  return {
    method: endpoint.method,
    url: endpoint.path,
    ...(guard ? { onRequest: guard } : {}),
    schema,
  };
}

import {
  type AnswerOf,
  addressOf,
  type CallInput,
  type Endpoint,
  type EndpointName,
  type Endpoints,
  type Route,
  routes,
} from '@storefront/contract';

/** An API answer that was not 2xx; `message` is the server's `{ message }` when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

async function messageOf(response: Response, fallback: string): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown; error?: { message?: unknown } };
    if (typeof body.message === 'string' && body.message) return body.message;
    if (typeof body.error?.message === 'string' && body.error.message) return body.error.message;
  } catch {
    // Not JSON (a proxy's error page, say): the caller's fallback says what failed.
  }
  return fallback;
}

/** What a call sends (the endpoint's parameters, query and body, each required where the endpoint has one). */
export type CallOptions<E extends Endpoint> = CallInput<E> & {
  /** The spec's message for this call, used when the server gives none. */
  fallbackMessage: string;
  signal?: AbortSignal;
};

/**
 * Calls one endpoint of the contract by name (packages/contract/src/api) and answers its parsed JSON, throwing ApiError
 * with a readable message: `callApi('revokeApiKey', { params: { id }, fallbackMessage })`. Only the endpoint's route
 * (method and address) is loaded at run time; its schemas give the types.
 */
export async function callApi<N extends EndpointName>(
  name: N,
  options: CallOptions<Endpoints[N]>,
): Promise<AnswerOf<Endpoints[N]>>;
export async function callApi(
  name: EndpointName,
  options: { fallbackMessage: string; signal?: AbortSignal },
): Promise<unknown> {
  const endpoint: Route = routes[name];
  const { params, query, body, fallbackMessage, signal } = options as {
    params?: Record<string, string | number>;
    query?: object;
    body?: unknown;
    fallbackMessage: string;
    signal?: AbortSignal;
  };
  let response: Response;
  try {
    response = await fetch(`/api${addressOf(endpoint.path, params, query)}`, {
      method: endpoint.method,
      signal,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, fallbackMessage);
  }
  if (!response.ok) throw new ApiError(response.status, await messageOf(response, fallbackMessage));
  // 204 No Content (a deletion): nothing to parse. Otherwise the body is what the endpoint's response schema says:
  // the server serialises every answer through that schema.
  if (response.status === 204) return undefined;
  return await response.json();
}

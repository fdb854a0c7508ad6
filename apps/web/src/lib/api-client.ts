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

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** The spec's message for this call, used when the server gives none. */
  fallbackMessage: string;
  signal?: AbortSignal;
}

/** Calls the product API under /api and parses the JSON answer, throwing ApiError with a readable message. */
export async function apiRequest<T>(path: string, { method = 'GET', body, fallbackMessage, signal }: ApiRequest) {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
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
  // 204 No Content (a deletion): nothing to parse.
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

import { vi } from 'vitest';

/** An answer's body: JSON, or a text file (`text`). */
type Handler = (request: {
  method: string;
  url: URL;
  body: unknown;
}) => { status?: number; body: unknown } | { status?: number; text: string };

/**
 * Replaces fetch with answers chosen by method and path (`'GET /api/admin/users'`), for component tests; calls nobody
 * answers fail the test with a 501. Returns the calls made.
 */
export function fakeApi(routes: Record<string, Handler>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path: url.pathname + url.search, body });
      const handler = routes[`${method} ${url.pathname}`];
      const answer = handler ? handler({ method, url, body }) : { status: 501, body: { message: 'no fake' } };
      if ('text' in answer)
        return new Response(answer.text, { status: answer.status ?? 200, headers: { 'content-type': 'text/plain' } });
      return new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

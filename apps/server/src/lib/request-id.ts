import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What an incoming X-Request-Id may be to be kept: a load balancer's or a client's own id, never anything longer. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The id of a request: the caller's X-Request-Id when it is one (so one id follows a request through a load balancer
 * and into our logs), else a new random UUID, which no other instance or restart will make again (Fastify's own
 * `req-1`, `req-2` … repeat in every process).
 */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

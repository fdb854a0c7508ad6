import type { FastifyRequest } from 'fastify';

/** What stands in the log where a secret was. */
export const REDACTED = '[redacted]';

/** Query parameters that carry a secret: reset and confirmation tokens, OAuth codes and state, provider tokens, API keys. */
const SECRET_QUERY = /([?&](?:token|code|state|id_token|access_token|refresh_token|otp|key)=)[^&#]*/gi;

/**
 * Path segments that are secrets themselves: the reset link's token (/api/auth/reset-password/<token>) and the sandbox's
 * invoices, which anyone holding the id may open (/sandbox/invoices/<id>, /api/sandbox/invoices/<id>).
 */
const SECRET_SEGMENT = /(\/(?:reset-password|verify-email|sandbox\/invoices)\/)[^/?#]+/gi;

/** The URL with every token, code and capability id replaced, so that a log reader cannot use what the log holds. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_SEGMENT, `$1${REDACTED}`).replace(SECRET_QUERY, `$1${REDACTED}`);
}

/** Fastify's request serializer, with the URL redacted (the headers are never logged). */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

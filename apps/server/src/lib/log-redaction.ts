import type { FastifyRequest } from 'fastify';

/** What stands in the log where a secret was. */
export const REDACTED = '[redacted]';

/** Query parameters that carry a secret: reset and confirmation tokens, OAuth codes and state, provider tokens, API keys. */
const SECRET_PARAMETERS = new Set([
  'token',
  'code',
  'state',
  'id_token',
  'access_token',
  'refresh_token',
  'otp',
  'key',
]);

/**
 * Path segments after which the next segment is a secret itself: the reset link's token (/api/auth/reset-password/<token>)
 * and the sandbox's invoices, which anyone holding the id may open (/sandbox/invoices/<id>, /api/sandbox/invoices/<id>).
 */
const SECRET_AFTER = [['reset-password'], ['verify-email'], ['sandbox', 'invoices']];

/** A personal API key, wherever it stands (modules/api-keys: `psk_` and base64url). */
const API_KEY = /psk_/i;

/** The text a client meant, whatever its percent-encoding; the raw text when it is not valid encoding. */
function decoded(text: string, plusIsSpace = false): string {
  try {
    return decodeURIComponent(plusIsSpace ? text.replace(/\+/g, ' ') : text);
  } catch {
    return text;
  }
}

function redactPath(path: string): string {
  const segments = path.split('/');
  const names = segments.map((segment) => decoded(segment).toLowerCase());
  return segments
    .map((segment, index) => {
      if (API_KEY.test(names[index] ?? '')) return REDACTED;
      const secret = SECRET_AFTER.some(
        (before) => index >= before.length && before.every((name, k) => names[index - before.length + k] === name),
      );
      return secret && segment !== '' ? REDACTED : segment;
    })
    .join('/');
}

/** A query string (without its `?`) with every secret parameter's value replaced; also for a span's `url.query`. */
export function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      const name = decoded(rawName, true).trim().toLowerCase();
      const value = equals === -1 ? '' : decoded(pair.slice(equals + 1), true);
      if (SECRET_PARAMETERS.has(name) || API_KEY.test(value)) return `${rawName}=${REDACTED}`;
      return API_KEY.test(name) ? REDACTED : pair;
    })
    .join('&');
}

/**
 * The URL with every token, code, capability id and API key replaced, so that a log reader cannot use what the log holds.
 * Names and values are judged as the server reads them (percent-decoded: `?ke%79=` is `?key=`), and the URL keeps the
 * client's own spelling otherwise.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const fragment = hash === -1 ? '' : url.slice(hash);
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const question = beforeHash.indexOf('?');
  if (question === -1) return redactPath(beforeHash) + fragment;
  return `${redactPath(beforeHash.slice(0, question))}?${redactQuery(beforeHash.slice(question + 1))}${fragment}`;
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

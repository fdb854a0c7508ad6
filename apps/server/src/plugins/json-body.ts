import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

/** Deeper than any body this API takes (the deepest is about 4 levels), far below what would exhaust the stack. */
export const MAX_JSON_DEPTH = 32;

/**
 * The body limit of the calls that carry lists of IPs (uploads, swaps, fulfilments): up to a /16 of lines (65,536 of
 * about 40 characters); every other call keeps the app's 1 MB.
 */
export const IP_LIST_BODY_LIMIT = 8 * 1_048_576;

export const tooDeepMessage = `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels of objects and arrays).`;

/** PostgreSQL cannot store or compare text holding U+0000; such text is refused before it reaches a query. */
export const nulMessage = 'Text in this request may not contain a NUL character (\\u0000).';

/** A JSON text with a string that holds U+0000 (written `\\u0000`; a raw one is invalid JSON anyway). */
export function jsonHasNul(text: string): boolean {
  let at = text.indexOf('\\u0000');
  while (at !== -1) {
    // An escape only when the backslash before `u0000` is not itself escaped (an odd run of backslashes).
    let run = 0;
    while (at - run - 1 >= 0 && text.charCodeAt(at - run - 1) === 92) run++;
    if (run % 2 === 0) return true;
    at = text.indexOf('\\u0000', at + 1);
  }
  return false;
}

/** Text that is not valid Unicode would be stored with U+FFFD in its place, changed without a word. */
export const brokenTextMessage =
  'Text in this request holds a broken character (an unpaired surrogate such as \\ud800): send valid Unicode.';

/** Whether a parsed JSON value holds a string (or a key) that is not well-formed: a lone surrogate, only escaped. */
export function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return !value.isWellFormed();
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, inner]) => !key.isWellFormed() || hasLoneSurrogate(inner));
}

/** A JSON text that writes a surrogate escape (`\\ud800`-`\\udfff`): only such a text can hold a lone one. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** The deepest nesting of objects and arrays in a JSON text, read without parsing it (strings are skipped). */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/**
 * Every JSON body of the app: Fastify's own parser (prototype-poisoning checks included), after a check of the nesting
 * depth, so that no handler or library meets a body deep enough to overflow the stack when it walks or re-serialises it.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      done(new AppError('BAD_REQUEST', tooDeepMessage), undefined);
      return;
    }
    if (jsonHasNul(text)) {
      done(new AppError('BAD_REQUEST', nulMessage), undefined);
      return;
    }
    if (!SURROGATE_ESCAPE.test(text)) {
      parseJson(request, text, done);
      return;
    }
    parseJson(request, text, (error, parsed) => {
      if (!error && hasLoneSurrogate(parsed)) done(new AppError('BAD_REQUEST', brokenTextMessage), undefined);
      else done(error, parsed);
    });
  });
}

/** A path or query holding a NUL (%00, or a raw one), which is refused as a body holding one is. */
export function addressHasNul(url: string): boolean {
  return url.includes('%00') || url.includes('\0');
}

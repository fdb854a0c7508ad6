import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

/** Deeper than any body this API takes (the deepest is about 4 levels), far below what would exhaust the stack. */
export const MAX_JSON_DEPTH = 32;

export const tooDeepMessage = `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels of objects and arrays).`;

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
    parseJson(request, text, done);
  });
}

import { messages } from '@storefront/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';
import { ProviderError } from '../payments/provider.ts';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

/**
 * Zod's own English messages ("Invalid input: expected string, received undefined", "Too small: expected number to be
 * >=1"); every other message was written in the contract for a person and is shown as written.
 */
const isZodDefault = (message: string) =>
  /^(Invalid (input|option|string|number|key|element|value|type)|Too (big|small)|Unrecognized key)/.test(message);

const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);
const UNITS: Record<string, string> = { string: ' characters', array: ' items', set: ' items', file: ' bytes' };

/**
 * One of zod's generic messages about the field `where`, in plain words ("quantity must be at least 1"); a message of
 * another form is kept after the field's name.
 */
export function zodMessageInWords(where: string, message: string, inQuery = false): string {
  const type = /^Invalid input: expected (\w+), received (\w+)$/.exec(message);
  if (type) {
    const [, expected = '', received] = type;
    if (received === 'undefined') return `${where} is required`;
    // A query parameter given twice (?country=us&country=gb) arrives as a list.
    if (inQuery && received === 'array' && expected !== 'array') return `${where} must be given once`;
    return `${where} must be ${article(expected)}`;
  }
  const size = /^Too (small|big): expected (\w+) to (?:be|have) ([<>]=?)(\S+?)(?: \w+)?$/.exec(message);
  if (size) {
    const [, , kind = '', bound = '', limit] = size;
    const unit = limit === '1' ? (UNITS[kind] ?? '').replace(/s$/, '') : (UNITS[kind] ?? '');
    const words = { '>=': 'at least', '>': 'more than', '<=': 'at most', '<': 'less than' }[bound] ?? bound;
    return `${where} must be ${words} ${limit}${unit}`;
  }
  const option = /^Invalid option: expected one of (.+)$/.exec(message);
  if (option) return `${where} must be one of ${option[1]?.replaceAll('|', ', ')}`;
  return `${where}: ${message}`;
}

/**
 * Turns schema validation issues into words a person can read. The contract's own messages are shown as written
 * ("This coupon code does not exist."); zod's generic ones are said in plain words with their field, the whole after
 * "Invalid request." ("Invalid request. quantity must be at least 1").
 */
export function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const described = issues.slice(0, 5).map((issue) => {
    const message = issue.params?.issue?.message ?? issue.message ?? 'is invalid';
    if (!isZodDefault(message)) return { sentence: true, text: message };
    const zodPath = issue.params?.issue?.path?.map(String).join('.');
    const where = zodPath || issue.instancePath?.replace(/^\//, '').replaceAll('/', '.') || context || 'request';
    return { sentence: false, text: zodMessageInWords(where, message, context === 'querystring') };
  });
  const parts = [...new Set(described.map((part) => part.text))];
  if (described.every((part) => part.sentence)) {
    return parts.every((part) => /[.!?]$/.test(part)) ? parts.join(' ') : parts.join('; ');
  }
  return `Invalid request. ${parts.join('; ')}`;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This route's refusals when they are not `{ message }`: the checkout answers `{ success: false, error: { message } }`
     * (spec section 7), and names its own failure.
     */
    errorShape?: { body: (message: string) => object; internalError: string };
  }
}

/** The sentence a fault's answer ends with: the request id to quote (it is also the X-Request-Id header). */
export const supportReference = (requestId: string) => `If it keeps happening, quote this id to support: ${requestId}.`;

/** One error handler for the whole app: the right status, the route's error shape, never a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const shape = request.routeOptions.config.errorShape;
    const body = (message: string) => shape?.body(message) ?? { message };
    if (error instanceof AppError) {
      // The provider's own words and codes stay in the log; the person gets the ProviderError's safe sentence.
      if (error instanceof ProviderError) {
        request.log.warn({ err: error.cause, provider: error.kind }, 'payment provider: %s', error.message);
      }
      return reply.status(error.status).send(body(error.message));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
        .status(400)
        .send(body(describeValidation(error.validationContext, error.validation as ValidationIssue[])));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, body too large, unsupported media type) carry readable messages.
      return reply.status(status).send(body(error.message));
    }
    request.log.error({ err: error }, 'request failed');
    // A fault of ours: the answer names the request, whose log lines carry the same id, for the customer to quote.
    const message = `${shape?.internalError ?? messages.internalError} ${supportReference(request.id)}`;
    return reply.status(500).send({ ...body(message), requestId: request.id });
  });
}

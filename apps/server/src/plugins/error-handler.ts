import { messages } from '@storefront/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

/** Turns schema validation issues into one sentence a person can read: "quantity: Too small: expected ...". */
export function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const parts = issues.slice(0, 5).map((issue) => {
    const zodPath = issue.params?.issue?.path?.map(String).join('.');
    const where = zodPath || issue.instancePath?.replace(/^\//, '').replaceAll('/', '.') || context || 'request';
    return `${where}: ${issue.params?.issue?.message ?? issue.message ?? 'is invalid'}`;
  });
  return `Invalid request. ${parts.join('; ')}`;
}

/** One error handler for the whole app: always `{ message }`, the right status, never a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({ message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
        .status(400)
        .send({ message: describeValidation(error.validationContext, error.validation as ValidationIssue[]) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, body too large, unsupported media type) carry readable messages.
      return reply.status(status).send({ message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: messages.internalError });
  });
}

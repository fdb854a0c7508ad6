import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import type { DestinationStream } from 'pino';

/**
 * Where a process's log goes: readable lines (pino-pretty) when a person watches it in a terminal outside production,
 * JSON lines on standard output otherwise (what a log collector reads). pino-pretty is a development tool, absent from a
 * release: without it, JSON.
 */
export async function logDestination(env: string): Promise<DestinationStream | undefined> {
  if (env === 'production' || !process.stdout.isTTY) return undefined;
  try {
    const { default: pretty } = await import('pino-pretty');
    return pretty({ colorize: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname' });
  } catch {
    return undefined;
  }
}

/** A request's two lines at debug, for development: the terminal keeps what matters (LOG_LEVEL=debug shows them). */
export class RequestLinesAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

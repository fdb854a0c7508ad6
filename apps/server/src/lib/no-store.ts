import type { FastifyReply, FastifyRequest } from 'fastify';

/** onSend hook for answers about one customer: never kept by a browser or a shared cache. */
export async function privateNoStore(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('cache-control', 'private, no-store');
}

import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * An answer's JSON as UTF-8 bytes, checked against its schema when it was made, and an ETag of those bytes (made when
 * first asked). Bytes rather than a string: a string would be encoded again on every send.
 */
export class PreparedJson {
  readonly body: Buffer;
  #etag: string | undefined;
  constructor(body: Buffer) {
    this.body = body;
  }
  get etag(): string {
    this.#etag ??= `"${createHash('sha256').update(this.body).digest('base64url').slice(0, 27)}"`;
    return this.#etag;
  }
}

/**
 * For answers kept in memory and sent many times (the pricing, a customer's usage, a remembered session): each answer is
 * encoded with its response schema and serialised once, the first time it is sent, and kept for as long as the object it
 * is made from lives (a WeakMap: when the cache drops the object, its bytes go with it). The encoding is the one the
 * route's serializer would apply (zod's encode, then JSON), so the bytes are the same as without it.
 */
export function preparedJson<Source extends object, Answer>(
  schema: z.ZodType<Answer>,
  answerOf: (source: Source) => Answer,
): (source: Source) => PreparedJson {
  const made = new WeakMap<Source, PreparedJson>();
  return (source) => {
    let prepared = made.get(source);
    if (prepared === undefined) {
      prepared = new PreparedJson(Buffer.from(JSON.stringify(z.encode(schema, answerOf(source)))));
      made.set(source, prepared);
    }
    return prepared;
  };
}

/** Sends JSON made beforehand as it is (the route's serializer does not run again for bytes). */
export function sendJson(reply: FastifyReply, json: PreparedJson | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json instanceof PreparedJson ? json.body : json);
}

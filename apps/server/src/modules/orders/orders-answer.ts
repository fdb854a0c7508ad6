import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import { type Order, orderListSchema } from '@storefront/contract';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';

type Encoding = 'br' | 'gzip';

/** Answers of at least this many bytes go out compressed to a client that accepts it (the app's threshold). */
const COMPRESS_FROM = 1024;

/** Compressed in the thread pool, off the event loop: br at @fastify/compress's quality, gzip at zlib's default. */
const compressors: Record<Encoding, (bytes: Buffer) => Promise<Buffer>> = {
  br: (bytes) =>
    promisify(brotliCompress)(bytes, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gzip: (bytes) => promisify(gzip)(bytes),
};

/** One customer's GET /api/orders answer of one version: its JSON, and that JSON compressed, made when first asked. */
interface KeptAnswer {
  version: string;
  json: Buffer;
  compressed: Partial<Record<Encoding, Promise<Buffer>>>;
}

/**
 * GET /api/orders's answers, the last one of each customer, kept under the version of the customer's orders
 * (list-orders.ts ordersVersion: every order's fields and its proxies_version, which a trigger raises on every change of
 * its IPs). A kept answer is served only to a read that found the same version in the database, on whichever instance
 * made the change; a 10,000-proxy answer is then neither read, serialised nor compressed again. At most `maxBytes` of
 * answers are kept per instance, the least recently read going first.
 */
export function createOrdersAnswers(maxBytes = 64 * 1024 * 1024) {
  const kept = new LRUCache<string, KeptAnswer>({
    maxSize: maxBytes,
    // The compressed forms are a fifth of the JSON or less: counted as a half, so that the bound holds.
    sizeCalculation: (answer) => Math.ceil(answer.json.length * 1.5) + 1,
  });

  return {
    /**
     * The customer's answer of `version` (made with `read` unless kept), compressed in the encoding the client prefers
     * among br and gzip when it is large enough.
     */
    async answer(
      userId: string,
      version: string,
      read: () => Promise<Order[]>,
      acceptEncoding: string | undefined,
    ): Promise<{ bytes: Buffer; encoding: Encoding | undefined }> {
      let answer = kept.get(userId);
      if (answer?.version !== version) {
        // Encoded exactly as the route's serializer would (the contract's schema, then JSON).
        const json = Buffer.from(JSON.stringify(z.encode(orderListSchema, await read())));
        answer = { version, json, compressed: {} };
        kept.set(userId, answer);
      }
      const encoding =
        answer.json.length >= COMPRESS_FROM && acceptEncoding
          ? (negotiate(acceptEncoding, ['br', 'gzip']) ?? undefined)
          : undefined;
      if (encoding === undefined) return { bytes: answer.json, encoding };
      const current = answer;
      current.compressed[encoding] ??= compressors[encoding](current.json).catch((error: unknown) => {
        // Not kept: the next read compresses again.
        delete current.compressed[encoding];
        throw error;
      });
      return { bytes: await current.compressed[encoding], encoding };
    },
  };
}

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type Order, orderListSchema, orderSchema } from '@storefront/contract';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';

const orderFieldsSchema = orderSchema.omit({ proxies: true });

export type AnswerEncoding = 'br' | 'gzip';

/** Answers of at least this many bytes are sent compressed to a client that accepts it (the app's threshold). */
const COMPRESS_FROM = 1024;

/** One customer's last GET /api/orders answer: what it was made of, its bytes, and those bytes compressed. */
interface KeptAnswer {
  /** Every order's fields as encoded (the part that is not the endpoint lists). */
  heads: string;
  /** The endpoint lists it holds, by identity: the endpoint cache gives the same list until the order's IPs change. */
  lists: string[][];
  bytes: Buffer;
  encoded: Partial<Record<AnswerEncoding, Buffer>>;
}

/**
 * GET /api/orders's answers, one per customer, kept while what they are made of is unchanged, so that the bulk of a large
 * answer is neither serialised nor compressed again on every read. At most `maxBytes` of answers are kept per instance,
 * the least recently read going first.
 */
export function createOrdersAnswers(maxBytes = 64 * 1024 * 1024) {
  const kept = new LRUCache<string, KeptAnswer>({
    maxSize: maxBytes,
    sizeCalculation: (answer) =>
      answer.bytes.length + (answer.encoded.br?.length ?? 0) + (answer.encoded.gzip?.length ?? 0) + 1,
  });

  return {
    /**
     * The customer's answer as bytes, and its encoding: compressed (made once per answer) when the client accepts br or
     * gzip and the answer is large enough, else as it is.
     */
    answer(userId: string, orders: Order[], acceptEncoding: string | undefined) {
      // What the answer is made of, besides the endpoint lists: compared on every read, so each order's fields are
      // encoded with the contract's schema each time (a few fields an order).
      const heads = orders
        .map(({ proxies: _proxies, ...fields }) => JSON.stringify(z.encode(orderFieldsSchema, fields)))
        .join('\n');
      const lists = orders.map((order) => order.proxies);
      let answer = kept.get(userId);
      let changed = false;
      if (
        answer === undefined ||
        answer.heads !== heads ||
        answer.lists.length !== lists.length ||
        answer.lists.some((list, index) => list !== lists[index])
      ) {
        // Made once per change, exactly as the route's serializer would (the contract's schema, then JSON).
        const bytes = Buffer.from(JSON.stringify(z.encode(orderListSchema, orders)));
        answer = { heads, lists, bytes, encoded: {} };
        changed = true;
      }
      const encoding = answer.bytes.length >= COMPRESS_FROM ? acceptedEncoding(acceptEncoding) : undefined;
      if (encoding !== undefined && answer.encoded[encoding] === undefined) {
        answer.encoded[encoding] =
          encoding === 'br'
            ? brotliCompressSync(answer.bytes, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: 5,
                  [constants.BROTLI_PARAM_SIZE_HINT]: answer.bytes.length,
                },
              })
            : gzipSync(answer.bytes);
        changed = true;
      }
      // Set when made or given a compressed form, so that its size is counted anew.
      if (changed) kept.set(userId, answer);
      return { bytes: encoding ? (answer.encoded[encoding] ?? answer.bytes) : answer.bytes, encoding };
    },
  };
}

/** br if the client accepts it, else gzip, else none (an encoding with q=0 is refused; `*` stands for both). */
export function acceptedEncoding(header: string | undefined): AnswerEncoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: AnswerEncoding) => weights.get(name) ?? weights.get('*') ?? 0;
  if (weightOf('br') > 0 && weightOf('br') >= weightOf('gzip')) return 'br';
  if (weightOf('gzip') > 0) return 'gzip';
  return undefined;
}

// The zod schemas of orders.ts: what the server validates and serialises, and the API reference; the web app takes
// their types only, so its pages load no zod (docs/decisions/2026-11-27-schemas-apart.md).
import { z } from 'zod';
import { COUNTRY_OPTIONS } from '../residential.ts';
import { productIdSchema } from './catalogue.ts';

/** One order of the customer (spec section 3 'Order'); times are ISO strings, proxies are `ip:port:user:pass`. */
export const orderSchema = z.object({
  id: z.string(),
  product_id: productIdSchema,
  purchase_time: z.string(),
  expiration_time: z.string().nullable(),
  proxies: z.array(z.string()),
  processing: z.boolean(),
  cancelled: z.boolean(),
  payment_failed: z.boolean(),
  /**
   * The order has ended (its period, or the grace period of a failed renewal, is over) and its IPs were released.
   * expiration_time then says when its paid period ended, a business date that can lie ahead of the real time when the
   * sandbox's test clock was moved forward.
   */
  expired: z.boolean(),
});
export type Order = z.infer<typeof orderSchema>;
export const orderListSchema = z.array(orderSchema);

/** The residential account's data (spec section 3 'Order usage'); 1 GB = 1024 × 1000 KB. */
export const orderUsageSchema = z.object({
  usedInKb: z.number(),
  totalInKb: z.number(),
  endpoint: z.string(),
  username: z.string(),
  password: z.string(),
});
export type OrderUsage = z.infer<typeof orderUsageSchema>;
export const orderUsageListSchema = z.array(orderUsageSchema);

const countryIds = new Set(COUNTRY_OPTIONS.map((country) => country.id));

/** POST /api/orders/usage/test: the line to try, as the list generator writes it (a new session id is made for it). */
export const connectionTestRequestSchema = z.strictObject(
  {
    country: z
      .string({ error: 'country must be a two-letter country code, such as US.' })
      .transform((value) => value.toUpperCase())
      .refine((value) => countryIds.has(value), { error: 'country must be a two-letter country code, such as US.' }),
    type: z.enum(['dynamic', 'static'], { error: 'type must be dynamic or static.' }),
  },
  { error: 'Send only country and type: the line is made with your own residential credentials.' },
);
export type ConnectionTestRequest = z.infer<typeof connectionTestRequestSchema>;

/** What one request through the gateway came to: the exit the test address saw, or the gateway's refusal in words. */
export const connectionTestSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    exitAddress: z.string().describe('The address the test address saw the request come from'),
    country: z.string().nullable().describe("The exit's country as the test address names it, when it does"),
    ms: z.number().int().describe('Milliseconds from sending the request to the whole answer'),
  }),
  z.object({
    ok: z.literal(false),
    reason: z.string().describe("The gateway's refusal (its Proxy-Status details), or what went wrong on the way"),
    ms: z.number().int(),
  }),
]);
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

/** Residential data carried by the gateway per UTC day, oldest first, days without traffic as 0 (the usage chart). */
export const dailyUsageSchema = z.object({
  days: z.array(z.object({ day: z.string().describe('YYYY-MM-DD (UTC)'), usedInKb: z.number().int() })),
});
export type DailyUsage = z.infer<typeof dailyUsageSchema>;

/** A paid residential order waiting for data (spec section 3 'Processing order'); quantity in GB. */
export const processingOrderSchema = z.object({ id: z.string(), quantity: z.number().int(), createdAt: z.string() });
export type ProcessingOrder = z.infer<typeof processingOrderSchema>;
export const processingOrderListSchema = z.array(processingOrderSchema);

/** Orders are named by UUIDs; anything else is refused before it reaches the database. */
export const orderIdSchema = z.uuid({ error: 'The order id is not valid.' });

export const cancelOrderRequestSchema = z.object({ id: orderIdSchema });

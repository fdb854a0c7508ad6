// The zod schemas of orders.ts: what the server validates and serialises, and the API reference; the web app takes
// their types only, so its pages load no zod (docs/decisions/2026-11-27-schemas-apart.md).
import { z } from 'zod';
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

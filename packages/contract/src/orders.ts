import type { Order } from './schemas/orders.ts';

/** The days the usage chart shows (dailyUsageSchema's answer), today included. */
export const USAGE_CHART_DAYS = 30;

export const ordersMessages = {
  fetchOrdersFailed: 'Failed to fetch orders',
  fetchUsageFailed: 'Failed to fetch order usage',
  fetchProcessingFailed: 'Failed to fetch processing orders',
  cancelFailed: 'Failed to cancel order',
  connectionTestFailed: 'Failed to test the connection',
  unknownError: 'An unknown error occurred',
  unknownCancelError: 'An unknown error occurred while cancelling the order',
} as const;

/**
 * Active means the paid period has not ended (spec section 4 'Order activity'), and never once the server has ended the
 * order, whatever its date; residential data never expires.
 */
export function isOrderActive(order: Pick<Order, 'expiration_time' | 'expired'>, now: Date = new Date()): boolean {
  if (order.expired) return false;
  return order.expiration_time === null || new Date(order.expiration_time).getTime() > now.getTime();
}

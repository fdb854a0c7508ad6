// The order history's words and the short form of an identifier, a module apart from the checkout's words so that
// the pages that show orders do not bring those along (the browser's build bundles a module whole).

export const orderHistoryMessages = {
  loadFailed: 'Failed to load order history',
  fetchFailed: 'Failed to fetch order history',
  emptyTitle: 'No orders yet',
  emptyText: 'Your order history will appear here once you make your first purchase.',
} as const;

export const ORDER_HISTORY_PAGE_SIZE = 10;

/** The last `length` characters of an identifier, upper case (order history and proxies list). */
export function shortId(id: string, length: number): string {
  return id.slice(-length).toUpperCase();
}

import { LRUCache } from 'lru-cache';

/** At most this many endpoints are kept per instance (about 40 MB), the least recently read orders going first. */
const MAX_ENDPOINTS = 500_000;

/**
 * Each order's endpoint list as GET /api/orders answers it, kept under `<order id>:<proxies_version>`. The version is read
 * from the database with the order on every request and raised by a trigger on every change of the order's IPs, so a
 * kept list is never served after a change, on any instance.
 */
export type EndpointCache = LRUCache<string, string[]>;

export function createEndpointCache(): EndpointCache {
  return new LRUCache<string, string[]>({ maxSize: MAX_ENDPOINTS, sizeCalculation: (list) => list.length + 1 });
}

export const endpointCacheKey = (order: { id: string; proxiesVersion: number }) =>
  `${order.id}:${order.proxiesVersion}`;

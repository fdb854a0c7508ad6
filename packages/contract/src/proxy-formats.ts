/**
 * How a proxy endpoint is written out for downloads and copies. Endpoints are stored as `ip:port:user:pass` (ARCHITECTURE
 * section 4); tools want other shapes.
 */
export const PROXY_FORMATS = {
  'ip:port:user:pass': 'ip:port:user:pass',
  'user:pass@ip:port': 'user:pass@ip:port',
  'http://user:pass@ip:port': 'http://user:pass@ip:port',
  'socks5://user:pass@ip:port': 'socks5://user:pass@ip:port',
} as const;
export type ProxyFormat = keyof typeof PROXY_FORMATS;
export const DEFAULT_PROXY_FORMAT: ProxyFormat = 'ip:port:user:pass';

/** Where a proxy answers, `ip:port`; also how the pools tell one endpoint from another. */
export const proxyAddress = (ip: string, port: number | string) => `${ip}:${port}`;

/**
 * A proxy's line as it is stored, downloaded and copied: `ip:port:user:pass`, or the address alone (`ip:port`) for a
 * proxy without credentials. The one place that writes it; formatEndpoint below reads it.
 */
export function proxyLine(address: string, username?: string, password?: string): string {
  return username ? `${address}:${username}:${password ?? ''}` : address;
}

/** One of PROXY_FORMATS' own names (not one an object inherits: 'constructor', 'toString'). */
export function isProxyFormat(value: unknown): value is ProxyFormat {
  return typeof value === 'string' && Object.hasOwn(PROXY_FORMATS, value);
}

/** Writes an `ip:port:user:pass` endpoint in a format; an endpoint without credentials (`ip:port`) stays as it is. */
export function formatEndpoint(endpoint: string, format: ProxyFormat): string {
  if (format === 'ip:port:user:pass') return endpoint;
  const [ip, port, ...rest] = endpoint.split(':');
  if (!ip || !port || rest.length < 2) return endpoint;
  const user = rest[0];
  const pass = rest.slice(1).join(':');
  const address = `${user}:${pass}@${ip}:${port}`;
  if (format === 'user:pass@ip:port') return address;
  return `${format === 'http://user:pass@ip:port' ? 'http' : 'socks5'}://${address}`;
}

/** The ISO date of a download's file name (spec section 9: download file dates use the ISO date). */
export const isoDate = (date: Date = new Date()) => date.toISOString().slice(0, 10);

/** The separator between orders in the all-orders download: a line of 50 '='. */
export const ORDER_SEPARATOR = '='.repeat(50);

/** `proxy-orders-{date}.txt`: every order's proxies, orders separated by a line of 50 '='. */
export function allOrdersDownload(
  orders: readonly { proxies: readonly string[] }[],
  format: ProxyFormat,
  date = new Date(),
) {
  const content = orders
    .filter((order) => order.proxies.length > 0)
    .map((order) => order.proxies.map((proxy) => formatEndpoint(proxy, format)).join('\n'))
    .join(`\n${ORDER_SEPARATOR}\n`);
  return { fileName: `proxy-orders-${isoDate(date)}.txt`, content };
}

/** `proxy-order-{last 8 of id, upper case}-{date}.txt`: one order's proxies. */
export function orderDownload(
  order: { id: string; proxies: readonly string[] },
  format: ProxyFormat,
  date = new Date(),
) {
  return {
    fileName: `proxy-order-${order.id.slice(-8).toUpperCase()}-${isoDate(date)}.txt`,
    content: order.proxies.map((proxy) => formatEndpoint(proxy, format)).join('\n'),
  };
}

import type { PROXY_FORMATS } from './proxy-formats.ts';

/**
 * Personal API keys: a customer's scripts and tools read their orders and load their proxy lists with one, without a
 * signed-in session. A key reads; it never buys, cancels or changes the account.
 */

/** Every key starts with it, so that a key found in a script or a leak is recognised for what it is. */
export const API_KEY_PREFIX = 'psk_';

/** How many characters of a key are kept in clear and shown in the list (the prefix and the next eight). */
export const API_KEY_START_LENGTH = API_KEY_PREFIX.length + 8;

export const API_KEY_LIMIT = 10;

export const API_KEY_NAME_MAX = 64;

export const apiKeyMessages = {
  nameRequired: 'Give the key a name, such as the tool that will use it.',
  nameTooLong: `A key name has at most ${API_KEY_NAME_MAX} characters.`,
  limitReached: `You already have ${API_KEY_LIMIT} API keys, the most allowed. Revoke one you no longer use to create another.`,
  notFound: 'This API key does not exist or was already revoked.',
  invalidKey: 'This API key is not valid. It may have been revoked; create a new one in Settings.',
  keyRequired: 'An API key is required: add ?key=YOUR_API_KEY to the link or send it as "Authorization: Bearer".',
  oneKey: 'The link gives more than one API key: keep one ?key= in it.',
  fetchFailed: 'Failed to fetch API keys',
  createFailed: 'Failed to create the API key',
  revokeFailed: 'Failed to revoke the API key',
  created: 'API key created. Copy it now: it will not be shown again.',
  revoked: 'API key revoked. Tools using it stop working at once.',
} as const;

/** Products a list link serves; without `product`, every static proxy of the customer (the Download List's lines). */
export const PROXY_LIST_PRODUCTS = ['isp_proxies', 'pk1_isp_proxies', 'residential_proxies'] as const;

/** The list link as the Proxies page shows it; the key stays a placeholder unless one is given. */
export function proxyListUrl(
  origin: string,
  options: {
    key?: string;
    product?: (typeof PROXY_LIST_PRODUCTS)[number];
    format?: keyof typeof PROXY_FORMATS;
    country?: string;
    type?: 'dynamic' | 'static';
    count?: number;
    /** Residential only: a proxy user's name, for its lines. */
    user?: string;
  },
): string {
  const params: [string, string | number | undefined][] = [
    ['key', options.key ?? 'YOUR_API_KEY'],
    ['product', options.product],
    ['format', options.format],
  ];
  if (options.product === 'residential_proxies') {
    params.push(['country', options.country], ['type', options.type], ['count', options.count], ['user', options.user]);
  }
  const query = params
    .filter(([, value]) => value !== undefined && value !== '')
    // ':', '/' and '@' may stand in a query as they are (RFC 3986): the format stays readable in the link.
    .map(
      ([name, value]) =>
        `${name}=${encodeURIComponent(String(value)).replace(/%3A/g, ':').replace(/%2F/g, '/').replace(/%40/g, '@')}`,
    )
    .join('&');
  return `${origin}/api/proxy-list?${query}`;
}

import { isIP } from 'node:net';
import { getDomain } from 'tldts';

/**
 * What a connection's bytes count under in the usage analytics, beside its account and proxy user: the targeted country
 * ('' for none) and the target's registrable domain ('' when not recorded). A tab cannot be in either (the meter
 * splits its keys at tabs).
 */
export const usageKey = (country: string, domain: string) => `${country}\t${domain}`;

/**
 * The registrable domain of a target host (example.co.uk for www.shop.example.co.uk, by the public suffix list): never a
 * subdomain, path or query. '' for an address or a name without a public suffix (localhost).
 */
export function registrableDomain(host: string): string {
  if (host === '' || isIP(host.replace(/^\[|\]$/g, '')) !== 0) return '';
  return getDomain(host.toLowerCase(), { allowPrivateDomains: false }) ?? '';
}

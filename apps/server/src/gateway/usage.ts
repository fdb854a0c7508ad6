import { isIP } from 'node:net';
import { getDomain } from 'tldts';

/**
 * What a connection's bytes count under in the usage analytics, beside its account and proxy user: the targeted country
 * ('' for none) and the target's registrable domain ('' when not recorded). A tab cannot be in either.
 */
export const usageKey = (country: string, domain: string) => `${country}\t${domain}`;

export function usageOf(key: string): { country: string; domain: string } {
  const tab = key.indexOf('\t');
  return tab < 0 ? { country: '', domain: '' } : { country: key.slice(0, tab), domain: key.slice(tab + 1) };
}

/**
 * The registrable domain of a target host (example.co.uk for www.shop.example.co.uk, by the public suffix list): never a
 * subdomain, path or query. '' for an address or a name without a public suffix (localhost).
 */
export function registrableDomain(host: string): string {
  if (host === '' || isIP(host.replace(/^\[|\]$/g, '')) !== 0) return '';
  return getDomain(host.toLowerCase(), { allowPrivateDomains: false }) ?? '';
}

import type { ResidentialTargeting } from '@storefront/contract';

/**
 * The upstream provider's username for one request, from RESIDENTIAL_UPSTREAM_USERNAME_TEMPLATE. Placeholders:
 * {username} (the upstream URL's own username), {country} (lower case), {COUNTRY}, {session}, {duration} (minutes),
 * {hard} ('hard' for a static line, else empty) and {type} ('static' or 'dynamic'). A part in square brackets is left out
 * when a placeholder in it is empty, so `[-{hard}]` disappears for dynamic lines. A plain username (no targeting) uses
 * the upstream username unchanged: the provider's own default.
 */
export function upstreamUsername(template: string, base: string, targeting: ResidentialTargeting | undefined): string {
  if (!targeting) return base;
  const values: Record<string, string> = {
    username: base,
    country: targeting.country.toLowerCase(),
    COUNTRY: targeting.country.toUpperCase(),
    session: targeting.sessionId,
    duration: String(targeting.durationMinutes),
    hard: targeting.type === 'static' ? 'hard' : '',
    type: targeting.type,
  };
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
  const withOptionalParts = template.replace(/\[([^\]]*)\]/g, (_, part: string) => {
    const names = [...part.matchAll(/\{(\w+)\}/g)].map(([, name]) => name ?? '');
    return names.every((name) => (values[name] ?? '') !== '') ? part : '';
  });
  return fill(withOptionalParts);
}

/** The upstream URL for one request: the configured URL with the username for this request's targeting. */
export function upstreamUrlFor(
  upstream: { url: string; usernameTemplate: string },
  targeting: ResidentialTargeting | undefined,
): string {
  const url = new URL(upstream.url);
  const base = decodeURIComponent(url.username);
  url.username = encodeURIComponent(upstreamUsername(upstream.usernameTemplate, base, targeting));
  return url.href;
}

import { DEFAULT_SITE_CONFIG, SITE_CONFIG_ELEMENT_ID, type SiteConfig } from '@storefront/contract';

const isHttpUrl = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\/\S+$/.test(value);

/**
 * The operator's settings, embedded by the server in index.html (validated there against the contract's schema);
 * defaults under the Vite dev server or if the block is damaged.
 */
function readSiteConfig(): SiteConfig {
  const element = typeof document === 'undefined' ? null : document.getElementById(SITE_CONFIG_ELEMENT_ID);
  if (!element?.textContent) return DEFAULT_SITE_CONFIG;
  try {
    const value = JSON.parse(element.textContent) as Partial<SiteConfig>;
    return {
      brandName:
        typeof value.brandName === 'string' && value.brandName ? value.brandName : DEFAULT_SITE_CONFIG.brandName,
      chatCommunityUrl: isHttpUrl(value.chatCommunityUrl)
        ? value.chatCommunityUrl
        : DEFAULT_SITE_CONFIG.chatCommunityUrl,
      supportUrl: isHttpUrl(value.supportUrl) ? value.supportUrl : DEFAULT_SITE_CONFIG.supportUrl,
      socialSignIn: {
        google: value.socialSignIn?.google === true,
        discord: value.socialSignIn?.discord === true,
      },
      sandboxPayments: value.sandboxPayments !== false,
      mailsInLog: value.mailsInLog === true,
      connectionTest: value.connectionTest === true,
      usageDomains: value.usageDomains !== false,
      origin: isHttpUrl(value.origin) ? value.origin : DEFAULT_SITE_CONFIG.origin,
    };
  } catch {
    return DEFAULT_SITE_CONFIG;
  }
}

export const site: SiteConfig = readSiteConfig();

/**
 * For the server renderer (entry-server.tsx): one process serves one operator, whose settings replace the defaults
 * before each synchronous render.
 */
export function applySiteConfig(config: SiteConfig): void {
  Object.assign(site, config);
}

/** The operator's settings the browser needs; the server embeds them in index.html (no secrets here). */
export interface SiteConfig {
  brandName: string;
  chatCommunityUrl: string;
  supportUrl: string;
  /** Which social sign-ins are configured; the other buttons explain that they are not available. */
  socialSignIn: { google: boolean; discord: boolean };
  /** True when payments go to the sandbox provider (no real money): its test clock and billing pages exist. */
  sandboxPayments: boolean;
}

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  brandName: 'Proxy Storefront',
  chatCommunityUrl: 'https://discord.gg/',
  supportUrl: 'https://discord.gg/',
  socialSignIn: { google: false, discord: false },
  sandboxPayments: true,
};

/** The id of the JSON data block in index.html that carries the site config. */
export const SITE_CONFIG_ELEMENT_ID = 'site-config';

import { z } from 'zod';

/** The operator's settings the browser needs; the server embeds them in index.html (no secrets here). */
export const siteConfigSchema = z.object({
  brandName: z.string().min(1),
  chatCommunityUrl: z.url(),
  supportUrl: z.url(),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  brandName: 'Proxy Storefront',
  chatCommunityUrl: 'https://discord.gg/',
  supportUrl: 'https://discord.gg/',
};

/** The id of the JSON data block in index.html that carries the site config. */
export const SITE_CONFIG_ELEMENT_ID = 'site-config';

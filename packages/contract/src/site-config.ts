import { z } from 'zod';
import type { SiteConfig } from './site.ts';

export const siteConfigSchema: z.ZodType<SiteConfig> = z.object({
  brandName: z.string().min(1),
  chatCommunityUrl: z.url(),
  supportUrl: z.url(),
  socialSignIn: z.object({ google: z.boolean(), discord: z.boolean() }),
  sandboxPayments: z.boolean(),
});

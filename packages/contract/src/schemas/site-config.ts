// The zod schema of the site's configuration (site.ts's SiteConfig), which the server checks; the web app takes the
// type only, so its pages load no zod (docs/decisions/2026-11-27-schemas-apart.md).
import { z } from 'zod';
import type { SiteConfig } from '../site.ts';

export const siteConfigSchema: z.ZodType<SiteConfig> = z.object({
  brandName: z.string().min(1),
  chatCommunityUrl: z.url(),
  supportUrl: z.url(),
  socialSignIn: z.object({ google: z.boolean(), discord: z.boolean() }),
  sandboxPayments: z.boolean(),
  mailsInLog: z.boolean(),
  connectionTest: z.boolean(),
  usageDomains: z.boolean(),
  origin: z.url(),
});

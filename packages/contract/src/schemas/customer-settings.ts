// The zod schemas of customer-settings.ts: what the server validates and serialises, and the API reference; the web app
// takes their types only, so its pages load no zod (docs/decisions/2026-11-27-schemas-apart.md).
import { z } from 'zod';
import { AUTHORIZED_IPS_MAX, authorizedIpMessages } from '../customer-settings.ts';

export const authorizedIpsSchema = z.object({
  ips: z.array(z.string()).describe('Single IPv4 or IPv6 addresses, as stored (IPv6 in its short form)'),
  onlyFromTheseIps: z
    .boolean()
    .describe('When true, the residential password is refused from any address not in the list'),
  currentIp: z.string().nullable().describe('The address this request came from, offered as a suggestion'),
});
export type AuthorizedIps = z.infer<typeof authorizedIpsSchema>;

export const authorizedIpsRequestSchema = z.object({
  ips: z
    .array(
      z.string({ error: 'Each authorised IP is a text such as 203.0.113.7.' }).max(100, {
        error: 'An authorised IP has at most 100 characters.',
      }),
      { error: 'ips must be a list of addresses, such as ["203.0.113.7"].' },
    )
    .max(AUTHORIZED_IPS_MAX, { error: authorizedIpMessages.tooMany }),
  onlyFromTheseIps: z.boolean({ error: 'onlyFromTheseIps must be true or false.' }).optional(),
});
export type AuthorizedIpsRequest = z.infer<typeof authorizedIpsRequestSchema>;

export const preferencesSchema = z.object({
  usageEmails: z
    .boolean({ error: 'usageEmails must be true or false.' })
    .describe('E-mails when 80 % and 100 % of the residential data are used'),
  recordDomains: z
    .boolean({ error: 'recordDomains must be true or false.' })
    .describe(
      "Whether the registrable domains of the customer's targets (such as example.com) are recorded in their usage " +
        'statistics; never a page, a full address or a query',
    ),
});
export type Preferences = z.infer<typeof preferencesSchema>;

/** The switches to change; the others stay as they are. */
export const preferencesRequestSchema = preferencesSchema.partial();
export type PreferencesRequest = z.infer<typeof preferencesRequestSchema>;

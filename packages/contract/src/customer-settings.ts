import { z } from 'zod';

/**
 * A customer's settings for the residential gateway (issue 38): authorised IPs, whose connections need no credentials,
 * "only from these IPs", and the usage e-mails at 80 % and 100 % of the data.
 */

export const AUTHORIZED_IPS_MAX = 10;

export const authorizedIpMessages = {
  tooMany: `At most ${AUTHORIZED_IPS_MAX} authorised IPs: take one off to add another.`,
  notAnAddress: (value: string) =>
    `"${value}" is not one IPv4 or IPv6 address (a range, a name or a port cannot be authorised).`,
  notPublic: (value: string) =>
    `${value} is a loopback, private or reserved address: the gateway sees customers only from public addresses.`,
  taken: (value: string) => `${value} is already authorised by another customer.`,
  onlyWithoutIps: 'Add at least one IP before turning on "Only from these IPs", or no tool could connect.',
  saved: 'Authorised IPs saved. The gateway uses them within a few seconds.',
  fetchFailed: 'Failed to fetch the authorised IPs',
  saveFailed: 'Failed to save the authorised IPs',
} as const;

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
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const preferencesMessages = {
  saved: 'Saved.',
  fetchFailed: 'Failed to fetch your e-mail settings',
  saveFailed: 'Failed to save your e-mail settings',
} as const;

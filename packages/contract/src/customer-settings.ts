/**
 * A customer's settings for the residential gateway: authorised IPs, whose connections need no credentials,
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

export const preferencesMessages = {
  saved: 'Saved.',
  fetchFailed: 'Failed to fetch your e-mail settings',
  saveFailed: 'Failed to save your e-mail settings',
} as const;

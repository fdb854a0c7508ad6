/**
 * A customer's proxy users: gateway credentials of their own on the account's residential data, each with an optional
 * allowance, authorised IPs, countries and a connection limit. The rules and words here are the server's and the
 * Proxies page's; the schemas that check requests are in schemas/proxy-users.ts.
 */

import { formatGb } from './data-amounts.ts';

export const PROXY_USERS_MAX = 100;
export const PROXY_USER_NAME_MAX = 24;
export const PROXY_USER_PASSWORD_MIN = 8;
export const PROXY_USER_PASSWORD_MAX = 32;
/** A generated password's length: letters and digits, from a cryptographic source. */
export const PROXY_USER_GENERATED_PASSWORD_LENGTH = 16;
export const PROXY_USER_NOTE_MAX = 500;
export const PROXY_USER_IPS_MAX = 3;
export const PROXY_USER_MAX_CONNECTIONS = 10_000;
export const PROXY_USER_RESET_DAY_MAX = 28;
export const PROXY_USER_HISTORY_PAGE_SIZE = 20;

export const PROXY_USER_NAME_PATTERN = /^[a-z0-9]{1,24}$/;
export const PROXY_USER_PASSWORD_PATTERN = /^[A-Za-z0-9]{8,32}$/;

export type ProxyUserAllowanceType = 'none' | 'total' | 'monthly';

export const proxyUserMessages = {
  nameRule: `A proxy user's name is 1 to ${PROXY_USER_NAME_MAX} lower-case letters and digits.`,
  nameTaken: (name: string) => `You already have a proxy user named ${name}: choose another name.`,
  passwordRule: `A proxy user's password is ${PROXY_USER_PASSWORD_MIN} to ${PROXY_USER_PASSWORD_MAX} letters and digits.`,
  noteTooLong: `A note has at most ${PROXY_USER_NOTE_MAX} characters.`,
  limitReached: `You have ${PROXY_USERS_MAX} proxy users, the most an account can have: delete one to add another.`,
  noResidentialData: 'Proxy users share your residential data: buy residential data first.',
  notFound: 'No such proxy user.',
  allowanceShape:
    'An allowance is none, a total cap (limitInKb) or a monthly cap (limitInKb and resetDay, the day of the month 1 to 28).',
  allowanceAmount: 'A cap is a whole number of KB, 0 or more.',
  resetDayRule: `The day a monthly cap starts again is 1 to ${PROXY_USER_RESET_DAY_MAX}.`,
  capBelowUsed: (usedKb: number) =>
    `A cap cannot be below what this proxy user has used this period (${formatGb(usedKb)}).`,
  ipsTooMany: `At most ${PROXY_USER_IPS_MAX} authorised IPs for a proxy user.`,
  ipTaken: (ip: string) => `${ip} is already authorised for another user: an IP lets in one user only.`,
  countryUnknown: (code: string) => `"${code}" is not a country of the list (two-letter codes such as US).`,
  maxConnectionsRule: `A connection limit is 1 to ${PROXY_USER_MAX_CONNECTIONS.toLocaleString('en-US')}, or none.`,
  created: 'Proxy user created.',
  saved: 'Proxy user saved. The gateway uses the change within a few seconds.',
  deleted: 'Proxy user deleted.',
  paused: 'Proxy user paused: the gateway refuses it within a few seconds.',
  resumed: 'Proxy user resumed.',
  fetchFailed: 'Failed to fetch your proxy users',
  createFailed: 'Failed to create the proxy user',
  saveFailed: 'Failed to save the proxy user',
  deleteFailed: 'Failed to delete the proxy user',
  passwordFailed: "Failed to fetch the proxy user's password",
  historyFailed: "Failed to fetch the allowance's history",
} as const;

export interface ProxyUserAllowance {
  allowance: ProxyUserAllowanceType;
  allowanceInKb: number | null;
  resetDay: number | null;
}

/** An allowance in words: 'No cap', '5.000 GB in total', '5.000 GB a month, from day 3'. */
export function describeAllowance({ allowance, allowanceInKb, resetDay }: ProxyUserAllowance): string {
  if (allowance === 'none' || allowanceInKb === null) return 'No cap';
  if (allowance === 'total') return `${formatGb(allowanceInKb)} in total`;
  return `${formatGb(allowanceInKb)} a month, from day ${resetDay ?? 1}`;
}

import { parseTargetedUsername, type ResidentialTargeting } from '@storefront/contract/residential.ts';
import { allowedFrom, type GatewayAccount, passwordMatches } from './accounts.ts';
import type { Connection } from './connections.ts';
import type { GatewayContext } from './context.ts';
import { registrableDomain, usageKey } from './usage.ts';

export type Refused =
  | 'credentialsRequired'
  | 'wrongCredentials'
  | 'tooManyFailures'
  | 'notThisIp'
  | 'blocked'
  | 'usedUp'
  | 'allowanceUsedUp'
  | 'paused'
  | 'countryNotAllowed'
  | 'tooManyConnections';
export type Granted = { account: GatewayAccount; targeting: ResidentialTargeting | undefined; via: 'password' | 'ip' };
export type Refusal = {
  refused: Refused;
  retryMs?: number;
  /** The country a proxy user's line asked for and may not target (none asked: undefined). */
  country?: string;
  /** A proxy user's limit of simultaneous connections, reached. */
  maxConnections?: number;
};
export type Outcome = Granted | Refusal;

export interface Credentials {
  username: string;
  password: string;
}

/** The username and password of a Basic Proxy-Authorization header; undefined without one (or without a username). */
export function credentialsOf(header: string | undefined): Credentials | undefined {
  const encoded = header === undefined ? undefined : /^\s*basic\s+(\S+)\s*$/i.exec(header)?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = colon < 0 ? decoded : decoded.slice(0, colon);
  // No username is how many clients begin (they send one after the 407): not counted as a failure.
  if (username === '') return undefined;
  return { username, password: colon < 0 ? '' : decoded.slice(colon + 1) };
}

/** Whether a kept-alive connection's request carries the header it authenticated with, for the same password. */
function sameAsBefore(connection: Connection, authorization: string | undefined): boolean {
  const known = connection.account;
  return (
    authorization !== undefined &&
    authorization === connection.authorization &&
    known !== undefined &&
    !known.gone &&
    connection.passwordVersion === known.passwordVersion
  );
}

/** The account of the credentials (counting a failure when wrong), or of the client's address without them. */
async function identify(
  context: GatewayContext,
  connection: Connection,
  credentials: Credentials | undefined,
): Promise<Outcome> {
  const { accounts, authFailures } = context;
  if (!credentials) {
    const account = await accounts.byAuthorizedIp(connection.clientIp);
    if (!account) return { refused: 'credentialsRequired' };
    return { account, targeting: undefined, via: 'ip' };
  }
  const targeting = parseTargetedUsername(credentials.username);
  const account = await accounts.get(targeting?.username ?? credentials.username);
  if (!account || !passwordMatches(account, credentials.password)) {
    await authFailures.fail(connection.source);
    return { refused: 'wrongCredentials' };
  }
  return { account, targeting, via: 'password' };
}

/** The cache key of what the client gave, when it gave credentials. */
function verifiedKey(
  context: GatewayContext,
  given: { authorization: string | undefined } | Credentials | undefined,
): string | undefined {
  if (given === undefined) return undefined;
  if ('authorization' in given) {
    const { authorization } = given;
    return authorization === undefined ? undefined : context.verified.keyOf({ authorization });
  }
  return context.verified.keyOf(given);
}

/**
 * Who the customer is: the failure limit of the source first (before any account is read), then the password (an
 * HTTP request's Proxy-Authorization header, or SOCKS credentials), or without credentials the authorised IPs; then
 * whether the account may carry anything from this address.
 */
export async function authenticate(
  context: GatewayContext,
  connection: Connection,
  given: { authorization: string | undefined } | Credentials | undefined,
): Promise<Outcome> {
  const refusedMs = await context.authFailures.refusedFor(connection.source);
  if (refusedMs > 0) return { refused: 'tooManyFailures', retryMs: refusedMs };
  const authorization = given !== undefined && 'authorization' in given ? given.authorization : undefined;
  let outcome: Outcome;
  /** The cache key of credentials whose password is checked below, to remember them once granted. */
  let checked: string | undefined;
  if (connection.account && sameAsBefore(connection, authorization)) {
    // The next request of a kept-alive connection with the same header: already checked, not decoded nor hashed again.
    outcome = { account: connection.account, targeting: connection.targeting, via: 'password' };
  } else {
    const key = verifiedKey(context, given);
    const verified = key === undefined ? undefined : context.verified.get(key);
    if (verified) outcome = { ...verified, via: 'password' };
    else {
      const credentials = given !== undefined && 'authorization' in given ? credentialsOf(authorization) : given;
      outcome = await identify(context, connection, credentials);
      checked = key;
    }
  }
  if ('refused' in outcome) return outcome;
  const { account } = outcome;
  if (outcome.via === 'password' && !allowedFrom(account, connection.clientIp)) return { refused: 'notThisIp' };
  if (account.blocked) return { refused: 'blocked' };
  if (account.paused) return { refused: 'paused' };
  const country = outcome.targeting?.country;
  if (account.countries.length > 0 && (country === undefined || !account.countries.includes(country))) {
    return { refused: 'countryNotAllowed', country };
  }
  if (!(await context.open.mayCarry(account))) return { refused: context.open.whyStopped(account) };
  if (!context.open.admitUser(connection, account)) {
    return { refused: 'tooManyConnections', maxConnections: account.maxConnections };
  }
  // Only a password just checked right, for an account that may carry, is remembered.
  if (checked !== undefined && outcome.via === 'password') context.verified.set(checked, account, outcome.targeting);
  return outcome;
}

/**
 * Bills the connection to the account from here on (what came before to the account it had), counted in its usage
 * analytics as one connection to `host` (a tunnel, or a plain-HTTP request).
 */
export function bind(
  context: GatewayContext,
  connection: Connection,
  granted: Granted,
  host: string,
  authorization?: string,
): void {
  context.open.meter(connection);
  connection.account = granted.account;
  connection.usage = usageKey(
    granted.targeting?.country ?? '',
    context.config.usageDomains && granted.account.recordDomains ? registrableDomain(host) : '',
  );
  context.open.countConnection(connection);
  connection.via = granted.via;
  connection.passwordVersion = granted.account.passwordVersion;
  connection.targeting = granted.targeting;
  connection.authorization = granted.via === 'password' ? authorization : undefined;
}

import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  type ConnectionTest,
  type ConnectionTestRequest,
  newSessionId,
  SESSION_DURATION_MINUTES,
  targetedUsername,
} from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { residentialAccounts } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { getThroughProxy, type ProxiedAnswer, proxyStatusDetails } from '../../lib/through-proxy.ts';

/** How long a test may take, the gateway, the exit and the test address together. */
export const CONNECTION_TEST_TIMEOUT_MS = 15_000;

export const connectionTestMessages = {
  notConfigured: 'The connection test is not set up on this shop.',
  noResidentialData: 'You have no residential data to test yet: buy some on the Purchase page.',
  notAnAddress:
    'The test address answered, but not with an address (JSON {"ip": "…"} or the address as plain text). Please tell support.',
  timedOut: `No answer within ${CONNECTION_TEST_TIMEOUT_MS / 1000} seconds: the gateway or the exit is slow or unreachable. Try again.`,
} as const;

/** The exit the test address saw: JSON `{ip, country}` (country optional) or the bare address as plain text. */
export function echoedExit(body: string): { exitAddress: string; country: string | null } | undefined {
  const text = body.trim();
  if (isIP(text) !== 0) return { exitAddress: text, country: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { ip, country } = parsed as { ip?: unknown; country?: unknown };
  if (typeof ip !== 'string' || isIP(ip) === 0) return undefined;
  return {
    exitAddress: ip,
    country: typeof country === 'string' && /^[a-z]{2}$/i.test(country) ? country.toUpperCase() : null,
  };
}

/** Why a request that came back did not show an exit: the gateway's refusal in its words, or the address's answer. */
function refusalOf(answer: ProxiedAnswer): string | undefined {
  if (answer.status === 200) return undefined;
  return (
    proxyStatusDetails(answer.headers['proxy-status']) ?? `The test address answered with status ${answer.status}.`
  );
}

/** A failure on the way (no answer at all) in words. */
function failureOf(error: unknown, gatewayEndpoint: string): string {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  if (name === 'AbortError' || name === 'TimeoutError') return connectionTestMessages.timedOut;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `The gateway at ${gatewayEndpoint} could not be reached. Try again in a minute.`;
  }
  return 'The connection was closed before an answer came. Try again.';
}

/**
 * The Residential tab's 'Test connection': one request through the gateway to the shop's test address, with the
 * customer's own credentials and the generator's targeting (a new session id), as a tool with that line would send it.
 * The account is read first, alone; the request goes out after, outside any transaction.
 */
export async function testResidentialConnection({
  db,
  userId,
  line,
  gatewayEndpoint,
  testUrl,
  timeoutMs = CONNECTION_TEST_TIMEOUT_MS,
}: {
  db: Db;
  userId: string;
  line: ConnectionTestRequest;
  gatewayEndpoint: string;
  testUrl: string | undefined;
  timeoutMs?: number;
}): Promise<ConnectionTest> {
  if (testUrl === undefined) throw new AppError('NOT_FOUND', connectionTestMessages.notConfigured);
  const [account] = await db
    .select({ username: residentialAccounts.username, password: residentialAccounts.password })
    .from(residentialAccounts)
    .where(eq(residentialAccounts.userId, userId));
  if (!account) throw new AppError('NOT_FOUND', connectionTestMessages.noResidentialData);
  const username = targetedUsername(account.username, {
    country: line.country,
    sessionId: newSessionId(),
    durationMinutes: SESSION_DURATION_MINUTES,
    type: line.type,
  });
  const authorization = `Basic ${Buffer.from(`${username}:${account.password}`).toString('base64')}`;
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  let answer: ProxiedAnswer;
  try {
    answer = await getThroughProxy({
      proxy: gatewayEndpoint,
      authorization,
      url: new URL(testUrl),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return { ok: false, reason: failureOf(error, gatewayEndpoint), ms: took() };
  }
  const ms = took();
  const refused = refusalOf(answer);
  if (refused !== undefined) return { ok: false, reason: refused, ms };
  const exit = echoedExit(answer.body);
  if (!exit) return { ok: false, reason: connectionTestMessages.notAnAddress, ms };
  return { ok: true, ...exit, ms };
}

/**
 * Whether a user is banned at `now`: the one rule every path uses (sessions, API keys, the residential gateway). A ban
 * with an expiry ends by itself at that instant; one without runs until an administrator lifts it.
 */
export function isBannedNow(
  user: { banned?: boolean | null; banExpires?: Date | string | null },
  now: number = Date.now(),
): boolean {
  if (user.banned !== true) return false;
  if (user.banExpires === null || user.banExpires === undefined) return true;
  return new Date(user.banExpires).getTime() > now;
}

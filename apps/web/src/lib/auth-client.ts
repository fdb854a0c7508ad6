import { createAuthClient } from 'better-auth/client';
import { twoFactorClient } from 'better-auth/client/plugins';

/** better-auth's browser client on this origin's /api/auth (session cookie, httpOnly). */
export const authClient = createAuthClient({
  basePath: '/api/auth',
  plugins: [twoFactorClient()],
});

/** better-auth answers `{ data, error }`; the error's message is the service's own words (spec: shown in a red alert). */
export function authErrorMessage(error: { message?: string | undefined; status?: number } | null, fallback: string) {
  return error?.message || fallback;
}

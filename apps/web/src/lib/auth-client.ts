import { createAuthClient } from 'better-auth/client';
import { twoFactorClient } from 'better-auth/client/plugins';

/**
 * better-auth's browser client on this origin's /api/auth (session cookie, httpOnly). Never imported directly: loaded
 * with `loadAuthClient` (load-auth-client.ts), so it is a file of its own that only the screens using it fetch.
 */
export const authClient = createAuthClient({
  basePath: '/api/auth',
  plugins: [twoFactorClient()],
});

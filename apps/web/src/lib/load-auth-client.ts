import { useEffect } from 'react';

/**
 * better-auth's client (auth-client.ts), loaded when first used instead of imported: it becomes a file of its own
 * (about 12 KB gzip) that no page needs in order to show. The sign-in screens start loading it as they show
 * (`usePreloadAuthClient`), so it is there by the time a form is sent; Settings when a two-step change starts. The
 * sign-out button posts to better-auth's endpoint itself (dashboard-layout.tsx). A second call answers the module
 * already loaded; a form whose client cannot be loaded says so (`authMessages.authClientUnavailable`).
 */
export const loadAuthClient = async () => (await import('./auth-client.ts')).authClient;

/** Starts loading the client as the screen shows; a failure here is met again, and said, when a form uses it. */
export function usePreloadAuthClient() {
  useEffect(() => {
    loadAuthClient().catch(() => {});
  }, []);
}

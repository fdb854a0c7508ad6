import { useEffect } from 'react';

/**
 * better-auth's client (auth-client.ts), loaded when first used: a file of its own that no page needs in order to show.
 * The sign-in screens start loading it as they show (`usePreloadAuthClient`), Settings when a two-step change starts;
 * a form whose client cannot be loaded says so (`authMessages.authClientUnavailable`).
 */
export const loadAuthClient = async () => (await import('./auth-client.ts')).authClient;

/** Starts loading the client as the screen shows; a failure here is met again, and said, when a form uses it. */
export function usePreloadAuthClient() {
  useEffect(() => {
    loadAuthClient().catch(() => {});
  }, []);
}

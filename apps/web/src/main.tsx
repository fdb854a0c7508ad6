import './styles/landing-mantine.ts';
import './styles/accessibility.css';
import { paths } from '@storefront/contract';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import { AppRouter, preloadRoute } from './app/router.tsx';
import { readServerState, seedQueryClient } from './app/server-state.ts';
import { DrawnForReader } from './lib/drawn-for-reader.ts';
import { createQueryClient } from './lib/query-client.ts';
import { drawnInAnotherZone, ReaderTimeZone, ReadsTimeZone, rememberTimeZone } from './lib/time-zone.ts';
import { authQueryKey, fetchAuthCheck } from './lib/use-auth.ts';
import { DrawnAt } from './lib/use-now.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

rememberTimeZone();
const queryClient = createQueryClient();
const serverState = readServerState();
const { drawnForReader } = serverState ? seedQueryClient(queryClient, serverState) : { drawnForReader: false };
// A signed-in screen needs the session and its chunks: all are asked for now, side by side, not one after the other.
if (window.location.pathname.startsWith(paths.dashboard)) {
  void queryClient.prefetchQuery({ queryKey: authQueryKey, queryFn: fetchAuthCheck });
  preloadRoute(window.location.pathname);
}

const app = (
  <StrictMode>
    <DrawnForReader value={drawnForReader}>
      <DrawnAt value={serverState?.readAt}>
        <ReaderTimeZone value={drawnInAnotherZone(serverState?.timeZone)}>
          <ReadsTimeZone value={serverState?.readsTimeZone}>
            <AppProvider queryClient={queryClient}>
              <AppRouter />
            </AppProvider>
          </ReadsTimeZone>
        </ReaderTimeZone>
      </DrawnAt>
    </DrawnForReader>
  </StrictMode>
);

if (root.firstElementChild) {
  // The server rendered this page (landing, legal, 404, a signed-in page or its frame). Hydrating in a transition lets
  // React yield to the browser between pieces of work instead of blocking the main thread for the whole tree.
  startTransition(() => {
    hydrateRoot(root, app);
  });
} else {
  createRoot(root).render(app);
}

import './styles/landing-mantine.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import { AppRouter } from './app/router.tsx';
import { readServerState, seedQueryClient } from './app/server-state.ts';
import { createQueryClient } from './lib/query-client.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
const serverState = readServerState();
if (serverState) seedQueryClient(queryClient, serverState);

const app = (
  <StrictMode>
    <AppProvider queryClient={queryClient}>
      <AppRouter />
    </AppProvider>
  </StrictMode>
);

if (root.firstElementChild) {
  // The server rendered this page (landing, legal, 404). Hydrating in a transition lets React yield to the browser
  // between pieces of work instead of blocking the main thread for the whole tree.
  startTransition(() => {
    hydrateRoot(root, app);
  });
} else {
  createRoot(root).render(app);
}

import { type CSSVariablesResolver, MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { createQueryClient } from '../lib/query-client.ts';
import { colorSchemeManager, theme } from './theme.ts';

// The toast host is loaded after the first render (and after hydration, so the server's HTML and the browser's first
// render agree): the landing page shows no toast, so it stays off its critical path.
const NotificationsHost = lazy(() => import('./notifications-host.tsx'));

// Mantine's default dimmed grey is below 4.5:1 on white; these shades meet WCAG AA in both schemes.
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});

/** Mounts the toast host once the page is on screen; its own state, so the rest of the tree does not render again. */
function NotificationsAfterMount() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted ? (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  ) : null;
}

/** `queryClient`: one made beforehand, holding data the server rendered with (see ../entry-server.tsx). */
export function AppProvider({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
    >
      <NotificationsAfterMount />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

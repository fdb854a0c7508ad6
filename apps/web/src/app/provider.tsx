import { type CSSVariablesResolver, MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { LiveAnnouncer } from '../lib/announce.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { colorSchemeManager, theme } from './theme.ts';

// The toast host is loaded after the first render (and after hydration, so the server's HTML and the browser's first
// render agree): the landing page shows no toast, so it stays off its critical path.
const NotificationsHost = lazy(() => import('./notifications-host.tsx'));

/** Colours whose light variant (badges, alerts) writes text in the colour itself on a pale tint of it. */
const TINTED = [
  'blue',
  'cyan',
  'grape',
  'gray',
  'green',
  'indigo',
  'lime',
  'orange',
  'pink',
  'red',
  'teal',
  'violet',
  'yellow',
];
/** The pale colours need more black to reach 4.5:1 on their own tint. */
const PALE = new Set(['lime', 'orange', 'yellow']);

// Mantine's default dimmed grey, and the text of its light variants, are below 4.5:1 in the light scheme; these meet
// WCAG AA in both schemes (the dark scheme's light variants already do). So does the red of form errors: Mantine's is
// 3.3:1 on white (red 6) and 3.4:1 on the dark page (red 8); red 9 is 5.5:1 on white, red 5 is 5.6:1 on the dark page
// and 4.9:1 on a dark card.
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      TINTED.map((color) => [
        `--mantine-color-${color}-light-color`,
        `color-mix(in srgb, var(--mantine-color-${color}-9), black ${PALE.has(color) ? 45 : 20}%)`,
      ]),
    ),
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-5)',
  },
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
      <LiveAnnouncer />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

import { type CSSVariablesResolver, MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState, useSyncExternalStore } from 'react';
import { LiveAnnouncer } from '../lib/announce.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { subscribeToToasts, toastsAsked } from '../lib/toasts.ts';
import { colorSchemeManager, theme } from './theme.ts';

// The toast host (with Mantine's notification system) loads when the first toast is asked for (lib/toasts.ts): no
// page needs it to show, and the server never draws it, so the server's HTML and the browser's first render agree.
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

/** Mounts the toast host with the first toast; its own state, so the rest of the tree does not render again. */
function NotificationsWhenAsked() {
  const asked = useSyncExternalStore(subscribeToToasts, toastsAsked, () => false);
  return asked ? (
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
      <NotificationsWhenAsked />
      <LiveAnnouncer />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

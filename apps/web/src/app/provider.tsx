import { type CSSVariablesResolver, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { createQueryClient } from '../lib/query-client.ts';
import { colorSchemeManager, theme } from './theme.ts';

// The toast host is loaded after the first render: the landing page shows no toast, so it stays off its critical path.
const NotificationsHost = lazy(() => import('./notifications-host.tsx'));

// Mantine's default dimmed grey is below 4.5:1 on white; these shades meet WCAG AA in both schemes.
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
    >
      <Suspense fallback={null}>
        <NotificationsHost />
      </Suspense>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { createQueryClient } from '../lib/query-client.ts';
import { colorSchemeManager, theme } from './theme.ts';

// The toast host is loaded after the first render: the landing page shows no toast, so it stays off its critical path.
const NotificationsHost = lazy(() => import('./notifications-host.tsx'));

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" colorSchemeManager={colorSchemeManager}>
      <Suspense fallback={null}>
        <NotificationsHost />
      </Suspense>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

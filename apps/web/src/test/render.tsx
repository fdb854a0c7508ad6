import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import NotificationsHost from '../app/notifications-host.tsx';
import { theme } from '../app/theme.ts';

// happy-dom has no FontFaceSet; Mantine's autosizing textarea listens to it for web fonts that finish loading.
if (typeof document !== 'undefined' && !('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

/**
 * Renders a component as the app does (Mantine's theme, a query client without retries, a router and the toast host),
 * for component tests under happy-dom (`// @vitest-environment happy-dom` at the top of the test file).
 */
export function renderWithApp(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider theme={theme}>
      <NotificationsHost />
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
  return { queryClient, ...render(ui, { wrapper }) };
}

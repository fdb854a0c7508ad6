import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
});

/** Light by default, the choice kept in local storage (the inline script in index.html reads the same key). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'mantine-color-scheme-value' });

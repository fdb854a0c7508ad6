import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 8 gives white button text a contrast above 4.5:1 (WCAG AA); shade 6 does not.
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
});

/** Light by default, the choice kept in local storage (the inline script in index.html reads the same key). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'mantine-color-scheme-value' });

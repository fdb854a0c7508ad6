import { Anchor, createTheme, localStorageColorSchemeManager } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 8 gives white button text a contrast above 4.5:1 (WCAG AA); shade 6 does not.
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  // Filled colours pick black or white text by their own lightness (white on yellow is unreadable).
  autoContrast: true,
  components: {
    // A link inside text must not be told apart by colour alone (WCAG 1.4.1): in the dark scheme the link blue is within
    // 3:1 of the body text, so every link is underlined.
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
  },
});

/** Light by default, the choice kept in local storage (the inline script in index.html reads the same key). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'mantine-color-scheme-value' });

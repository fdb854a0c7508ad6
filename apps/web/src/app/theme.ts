import { Anchor, Badge, createTheme, localStorageColorSchemeManager } from '@mantine/core';

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
    // A badge is as wide as its word at every width: Mantine's cuts it with an ellipsis when its column is narrow
    // ("FU…" for fulfilled in a table at 375 px); a table scrolls sideways instead, a group of badges wraps.
    Badge: Badge.extend({ styles: { root: { minWidth: 'max-content' } } }),
  },
});

/** Light by default, the choice kept in local storage (the inline script in index.html reads the same key). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'mantine-color-scheme-value' });

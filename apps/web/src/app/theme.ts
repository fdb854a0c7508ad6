import {
  type AlertProps,
  Anchor,
  Badge,
  createTheme,
  type DrawerProps,
  localStorageColorSchemeManager,
  type MenuProps,
  type ModalProps,
  type NotificationProps,
  type PaginationProps,
  type TableScrollContainerProps,
} from '@mantine/core';
import classes from './theme.module.css';

/** The name of every close ×: Mantine's is an icon without words, which a screen reader reads as "button". */
const closeButtonProps = { 'aria-label': 'Close' };
/** The pagination's arrows, named (Mantine's are icons only). */
const PAGINATION_CONTROLS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

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
    // Every dialog, drawer, toast and dismissible alert names its close button; a component may still give its own.
    // Plain objects, not Modal.extend(): the theme is on the landing page, which must not load these components' code.
    Modal: { defaultProps: { closeButtonProps } satisfies Partial<ModalProps> },
    Drawer: { defaultProps: { closeButtonProps } satisfies Partial<DrawerProps> },
    Notification: { defaultProps: { closeButtonProps } satisfies Partial<NotificationProps>, classNames: classes },
    Alert: { defaultProps: { closeButtonLabel: 'Close' } satisfies Partial<AlertProps> },
    // A dialog's title bar is not the page's banner: as a <header> outside any section it made a second one.
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
    // Mantine puts a focusable <div> without a role first in a menu (for the initial focus): a menu may hold menu
    // items only (axe's aria-required-children), and the focus goes to the first item instead.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } satisfies Partial<MenuProps> },
    // A table wider than the screen shows its scrollbar (on a phone nothing else says it scrolls sideways; Mantine's
    // default shows it only under a hovering pointer). A container that passes its own scroll-area props says so too.
    TableScrollContainer: {
      defaultProps: { scrollAreaProps: { type: 'auto' } } satisfies Partial<TableScrollContainerProps>,
    },
    Pagination: {
      defaultProps: {
        getControlProps: (control) => ({ 'aria-label': PAGINATION_CONTROLS[control] }),
      } satisfies Partial<PaginationProps>,
    },
  },
});

/** Light by default, the choice kept in local storage (the inline script in index.html reads the same key). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'mantine-color-scheme-value' });

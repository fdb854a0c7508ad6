import type { ComboboxProps } from '@mantine/core';
import { MAIN_CONTENT_ID } from './skip-link.tsx';

/**
 * For a Select in a signed-in page (`comboboxProps`): its list opens at the end of the page's <main>, inside the main
 * landmark where screen readers look for the page's content, not at the end of the document outside every landmark
 * (axe's `region`). Still a portal: opened in place, a list inside a Card (`overflow: hidden`) would be cut off.
 */
export const LIST_IN_MAIN: ComboboxProps = { portalProps: { target: `#${MAIN_CONTENT_ID}` } };

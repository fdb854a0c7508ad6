import type { MouseEvent } from 'react';

/** The id of each layout's main region, where "Skip to main content" goes. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to main content", the first thing the keyboard reaches on every page (WCAG 2.4.1): hidden until focused
 * (styles/accessibility.css). It moves the focus itself, so the router's URL keeps no fragment.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
  };
  return (
    <a className="app-skip-link" href={`#${MAIN_CONTENT_ID}`} onClick={skip}>
      Skip to main content
    </a>
  );
}

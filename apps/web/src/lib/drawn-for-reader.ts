import { createContext } from 'react';

/**
 * True when the server drew this signed-in page for its reader: with their session and the page's first reads, which
 * the browser's query cache starts with (entry-server.tsx, main.tsx). The dashboard then hydrates the whole page
 * instead of the frame and skeleton it draws for a visitor the server did not read for.
 */
export const DrawnForReader = createContext(false);

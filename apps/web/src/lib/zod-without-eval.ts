// Imported first by main.tsx, before any schema is built: zod's fast object parser compiles code with `new Function`,
// and merely probing for it breaks the page's Content-Security-Policy (script-src has no 'unsafe-eval'), which the
// browser reports as a violation on every page (Lighthouse's best practices counted it). The browser's parsing is small
// (one answer at a time), so the plain parser is enough; the server keeps the compiled one.
import { config } from 'zod/v4/core';

config({ jitless: true });

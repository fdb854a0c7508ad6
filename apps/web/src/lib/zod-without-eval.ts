// Imported first by main.tsx, before any schema is built: zod's fast object parser compiles code with `new Function`,
// and merely probing for it, as an object schema is built, breaks the page's Content-Security-Policy (script-src has no
// 'unsafe-eval'), which the browser reports as a violation (Lighthouse's best practices counted it). Only the admin
// console's coupon form builds schemas in the browser (a chunk of its own, loaded with its dialog; a customer's pages
// load no zod besides this setting, which the build checks), but set in the console's own modules it ran too late: the
// bundler orders a chunk's modules by where the app first reaches them, not by the importing module's order. The
// browser's parsing is small (one form at a time), so the plain parser is enough; the server keeps the compiled one.
import { config } from 'zod/v4/core';

config({ jitless: true });

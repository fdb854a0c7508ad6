// Imported first by main.tsx, before any schema is built: zod's fast object parser compiles code with `new Function`,
// and merely probing for it, as an object schema is built, breaks the page's Content-Security-Policy (script-src has no
// 'unsafe-eval'), which the browser reports as a violation (Lighthouse's best practices counted it). Only the admin
// console builds schemas in the browser (its coupon form checks with the contract's; a customer's pages load no zod
// besides this setting, which the build checks), but it must be set before the console's chunk runs, and the bundler
// orders that chunk's modules by where the app first reaches them, not by the console's own imports. The browser's
// parsing is small (one form at a time), so the plain parser is enough; the server keeps the compiled one.
import { config } from 'zod/v4/core';

config({ jitless: true });

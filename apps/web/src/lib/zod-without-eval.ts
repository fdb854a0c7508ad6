// zod's fast object parser compiles code with `new Function`, and merely probing for it, as an object schema is built,
// breaks the page's Content-Security-Policy (script-src has no 'unsafe-eval'), which the browser reports as a violation
// (Lighthouse's best practices counted it). The browser's parsing is small (one form at a time), so the plain parser is
// enough; the server keeps the compiled one. Only the forms that check against a schema build schemas in the browser
// (each a chunk of its own with zod and the contract's schemas): they load through `withSchemas`, which sets zod's
// `jitless` first, in a file of its own that no page loads to show. Set in a form's own module it ran too late: a
// chunk's modules run in the order the bundler first reaches them (the schemas before the form importing them).

/** Loads a form that builds zod schemas (`load`, its dynamic import) once zod is set to run without `new Function`. */
export async function withSchemas<T>(load: () => Promise<T>): Promise<T> {
  await import('./zod-config.ts');
  return load();
}

// Fails the build when a Mantine component in the bundle has no styles in it: the app imports Mantine's styles per
// component (src/styles/landing-mantine.ts, src/styles/app-mantine.ts), not the whole file, so a component used for the
// first time must be added there. Each of @mantine/core's `*.module.mjs` in any chunk (the class names a component
// renders) must have every class and animation it names in the built CSS. Run by `npm run build` after Vite.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dist = path.resolve(import.meta.dirname, '../dist');
const chunks: Record<string, string[]> = JSON.parse(readFileSync(path.join(dist, '.vite/chunk-modules.json'), 'utf8'));
const css = readdirSync(path.join(dist, 'assets'))
  .filter((file) => file.endsWith('.css'))
  .map((file) => readFileSync(path.join(dist, 'assets', file), 'utf8'))
  .join('\n');

const missing = new Map<string, string[]>();
for (const module of new Set(Object.values(chunks).flat())) {
  // Modules are named by their path from apps/web (../../node_modules/@mantine/core/esm/…/Button.module.mjs).
  const found = module.match(/@mantine\/core\/esm\/.+\/([A-Za-z]+)\.module\.mjs$/);
  if (!found?.[1]) continue;
  const source = readFileSync(path.resolve(import.meta.dirname, '..', module), 'utf8');
  const classes = [...source.matchAll(/"(m_[0-9a-f]+)"/g)].map((match) => match[1] as string);
  // A class (.m_…) or an animation (@keyframes m_…): either way the name is in the CSS when the file is.
  const absent = classes.filter((name) => !css.includes(name));
  if (absent.length > 0) missing.set(found[1], absent);
}
if (missing.size > 0) {
  for (const [component, classes] of missing) {
    console.error(
      `Mantine's ${component} is in the bundle but its styles are not (${classes.slice(0, 3).join(', ')}): add import '@mantine/core/styles/${component}.layer.css' to apps/web/src/styles/app-mantine.ts (every page but the landing), or to landing-mantine.ts when the landing page renders it.`,
    );
  }
  process.exit(1);
}
console.log(`Mantine styles: every component in the bundle has its styles (${css.length} bytes of CSS in all).`);

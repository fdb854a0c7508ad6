import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's import rules (docs/architecture.md): modules depend on each other without loops, and the payment providers
 * (src/payments) know nothing of the modules. Read from the source, so a new import that breaks a rule fails here.
 */
const src = import.meta.dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** The area of a file: `modules/<name>` or the top folder under src (`payments`, `lib`, `db`, ...). */
function areaOf(file: string): string {
  const [top, second] = path.relative(src, file).split(path.sep);
  return top === 'modules' && second ? `modules/${second}` : (top ?? '');
}

function areaGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) {
    const from = areaOf(file);
    if (!from.startsWith('modules/') && from !== 'payments') continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const to = areaOf(path.resolve(path.dirname(file), specifier ?? ''));
      if (to !== from && (to.startsWith('modules/') || to === 'payments')) {
        graph.set(from, (graph.get(from) ?? new Set()).add(to));
      }
    }
  }
  return graph;
}

describe('server layering', () => {
  it('has no import loop between modules', () => {
    const graph = areaGraph();
    const loops: string[] = [];
    const visit = (area: string, trail: string[]) => {
      if (trail.includes(area)) {
        loops.push([...trail.slice(trail.indexOf(area)), area].join(' -> '));
        return;
      }
      for (const next of graph.get(area) ?? []) visit(next, [...trail, area]);
    };
    for (const area of graph.keys()) visit(area, []);
    expect(graph.size).toBeGreaterThan(5);
    expect([...new Set(loops)]).toEqual([]);
  });

  it('keeps the payment providers free of the modules', () => {
    expect([...(areaGraph().get('payments') ?? [])]).toEqual([]);
  });
});

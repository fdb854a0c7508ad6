import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { Database } from './db/client.ts';
import { createMetrics, observeRequestDurations, registerShopGauges } from './lib/metrics.ts';
import { registerGatewayMetrics } from './lib/metrics-gateway.ts';
import { getStock } from './modules/catalogue/get-pricing.ts';
import { repoRoot, tempDir } from './test/service.ts';

// docs/monitoring's alert rules and Grafana dashboard use only metrics, and labels, that the shop exports: they are read
// here and compared with the shop's own registry (lib/metrics.ts), so a metric renamed or dropped there fails this test
// instead of silently emptying a panel or an alert. Where promtool is installed (Debian: apt-get install prometheus),
// the rules are also checked and run against their test cases, and every dashboard query is checked as PromQL.
const folder = path.join(repoRoot, 'docs/monitoring');
const rulesFile = path.join(folder, 'storefront-alerts.yml');
const dashboardFile = path.join(folder, 'storefront-dashboard.json');

/** Written by Prometheus (up) and the blackbox exporter (probe_success), not by the shop. */
const EXTERNAL: Record<string, string[]> = { up: [], probe_success: [] };
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's own syntax for a variable, not a template literal.
const DATASOURCE_VARIABLE = '${datasource}';
/** Labels Prometheus adds to every series it scrapes. */
const TARGET_LABELS = ['job', 'instance'];

/** Every series name the shop exports, with the labels each may carry. */
function exportedSeries(): Map<string, string[]> {
  const metrics = createMetrics();
  observeRequestDurations(Fastify(), metrics.registry);
  // Only the gauges' names and labels are read here: their collect() (the database) never runs.
  const database = { db: {}, poolConnections: () => ({ total: 0, idle: 0, waiting: 0 }) } as unknown as Database;
  const ok = () => ({ status: 'ok' });
  registerShopGauges(metrics.registry, {
    database,
    readiness: { redis: ok, smtp: ok },
    lowStock: { ips: 20, gb: 50 },
    readStock: () => getStock(database.db),
  });
  // A server with GATEWAY_ENABLED, and a gateway on its own, serve these too.
  registerGatewayMetrics(metrics.registry, {
    connections: () => 0,
    carried: () => ({ upload: 0, download: 0 }),
    refused: () => ({ perIpLimit: 0 }),
  });
  const series = new Map<string, string[]>(Object.entries(EXTERNAL));
  for (const metric of metrics.registry.getMetricsAsArray() as unknown as {
    name: string;
    type: string;
    labelNames?: string[];
  }[]) {
    const labels = [...(metric.labelNames ?? [])];
    if (metric.type === 'histogram') {
      series.set(`${metric.name}_bucket`, [...labels, 'le']);
      series.set(`${metric.name}_sum`, labels);
      series.set(`${metric.name}_count`, labels);
    } else if (metric.type === 'summary') {
      series.set(metric.name, [...labels, 'quantile']);
      series.set(`${metric.name}_sum`, labels);
      series.set(`${metric.name}_count`, labels);
    } else {
      series.set(metric.name, labels);
    }
  }
  return series;
}

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'inf', 'nan']);

interface Use {
  metric: string;
  labels: string[];
}

/**
 * The metrics a PromQL expression reads, each with the labels it matches on, and the labels it groups by. Grafana's
 * variables ($job, $__rate_interval) stand for values, never for names, so they are left out.
 */
function promqlUses(expression: string): { uses: Use[]; grouping: string[] } {
  const uses: Use[] = [];
  const grouping: string[] = [];
  let rest = expression.replace(/\$\{?\w+\}?/g, 'X');
  // label_values(<selector>, <label>): the label is one of the selector's.
  rest = rest.replace(/label_values\(([^,]+),\s*(\w+)\)/g, (_, selector: string, label: string) => {
    grouping.push(label);
    return ` ${selector} `;
  });
  rest = rest.replace(/([a-zA-Z_:][\w:]*)?\s*\{([^}]*)\}/g, (_, metric: string | undefined, matchers: string) => {
    const labels = [...matchers.matchAll(/(\w+)\s*(?:=~|!~|!=|=)\s*"/g)].map((match) => match[1] ?? '');
    if (metric && !KEYWORDS.has(metric)) uses.push({ metric, labels });
    return ' ';
  });
  rest = rest.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_, _word, list: string) => {
    grouping.push(
      ...list
        .split(',')
        .map((label) => label.trim())
        .filter(Boolean),
    );
    return ' ';
  });
  rest = rest.replace(/"[^"]*"/g, ' ').replace(/\[[^\]]*\]/g, ' ');
  for (const match of rest.matchAll(/(?<![\w.:])([a-zA-Z_:][\w:]*)(?![\w:]|\s*\()/g)) {
    const name = match[1] ?? '';
    if (!KEYWORDS.has(name.toLowerCase())) uses.push({ metric: name, labels: [] });
  }
  return { uses, grouping };
}

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const rules = (parseYaml(readFileSync(rulesFile, 'utf8')) as { groups: { name: string; rules: Rule[] }[] }).groups;

interface Panel {
  id?: number;
  type: string;
  title?: string;
  datasource?: { type: string; uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { expr: string; datasource?: { uid: string } }[];
  panels?: Panel[];
}
const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8')) as {
  title: string;
  uid: string;
  panels: Panel[];
  templating: {
    list: { name: string; type: string; query: string | { query: string }; datasource?: { uid: string } }[];
  };
};
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);

/** Every PromQL expression of the two files, with where it is. */
function expressions(): { where: string; expr: string }[] {
  return [
    ...rules.flatMap((group) => group.rules.map((rule) => ({ where: `rule ${rule.alert}`, expr: rule.expr }))),
    ...panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({ where: `panel ${panel.title}`, expr: target.expr })),
    ),
    ...dashboard.templating.list
      .filter((variable) => variable.type === 'query')
      .map((variable) => ({
        where: `variable ${variable.name}`,
        expr: typeof variable.query === 'string' ? variable.query : variable.query.query,
      })),
  ];
}

describe('docs/monitoring', () => {
  const series = exportedSeries();

  it('reads only metrics the shop exports, with labels they carry', () => {
    const problems: string[] = [];
    for (const { where, expr } of expressions()) {
      const { uses, grouping } = promqlUses(expr);
      expect(uses.length, `${where} reads no metric: ${expr}`).toBeGreaterThan(0);
      for (const use of uses) {
        const labels = series.get(use.metric);
        if (!labels) {
          problems.push(`${where}: ${use.metric} is not a metric the shop exports`);
          continue;
        }
        for (const label of use.labels) {
          if (!labels.includes(label) && !TARGET_LABELS.includes(label)) {
            problems.push(`${where}: ${use.metric} has no label ${label}`);
          }
        }
      }
      const known = new Set([...TARGET_LABELS, ...uses.flatMap((use) => series.get(use.metric) ?? [])]);
      for (const label of grouping) {
        if (!known.has(label)) problems.push(`${where}: no metric it reads has the label ${label}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the dashboard shows every metric of the shop', () => {
    const shown = new Set(
      panels.flatMap((panel) =>
        (panel.targets ?? []).flatMap((target) => promqlUses(target.expr).uses.map((use) => use.metric)),
      ),
    );
    const shop = [...series.keys()].filter(
      (name) => name.startsWith('storefront_') || name.startsWith('http_request_duration_seconds'),
    );
    const families = new Set(shop.map((name) => name.replace(/_(bucket|sum|count)$/, '')));
    const missing = [...families].filter((family) => ![...shown].some((name) => name.startsWith(family)));
    expect(missing).toEqual([]);
  });

  it('has alert rules that say how bad and what happened', () => {
    const alerts = rules.flatMap((group) => group.rules);
    expect(alerts.length).toBeGreaterThanOrEqual(10);
    for (const rule of alerts) {
      expect(rule.alert, rule.expr).toMatch(/^Storefront[A-Z]\w+$/);
      expect(['critical', 'warning'], `${rule.alert} severity`).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, `${rule.alert} summary`).toBeTruthy();
      expect(rule.annotations?.description, `${rule.alert} description`).toBeTruthy();
    }
    expect(new Set(alerts.map((rule) => rule.alert)).size).toBe(alerts.length);
  });

  it('is a Grafana dashboard whose data source is a variable', () => {
    const datasource = dashboard.templating.list.find((variable) => variable.type === 'datasource');
    expect(datasource).toMatchObject({ name: 'datasource', query: 'prometheus' });
    for (const panel of panels.filter((entry) => entry.type !== 'row')) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: DATASOURCE_VARIABLE });
      for (const target of panel.targets ?? []) expect(target.datasource?.uid, panel.title).toBe(DATASOURCE_VARIABLE);
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
    }
    for (const variable of dashboard.templating.list.filter((entry) => entry.type === 'query')) {
      expect(variable.datasource?.uid, variable.name).toBe(DATASOURCE_VARIABLE);
    }
    const ids = panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.uid).toBe('storefront');
  });

  const promtool = spawnSync('promtool', ['--version']).status === 0;
  it.runIf(promtool)(
    'promtool: the rules are valid, pass their test cases, and every dashboard query is PromQL',
    () => {
      execFileSync('promtool', ['check', 'rules', rulesFile], { stdio: 'pipe' });
      execFileSync('promtool', ['test', 'rules', 'storefront-alerts.test.yml'], { cwd: folder, stdio: 'pipe' });
      // The dashboard's queries as recording rules, Grafana's variables given values, for promtool to parse.
      const work = tempDir('storefront-dashboard-promql-');
      try {
        const file = path.join(work.dir, 'dashboard-queries.yml');
        const queries = panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
        const asRules = queries.map((expr, index) => ({
          record: `dashboard:query_${index}`,
          expr: expr
            .replaceAll('$__rate_interval', '1m')
            .replaceAll('$__range', '1h')
            .replaceAll('$job', 'storefront')
            .replaceAll('$instance', '.*'),
        }));
        writeFileSync(file, JSON.stringify({ groups: [{ name: 'dashboard', rules: asRules }] }));
        execFileSync('promtool', ['check', 'rules', file], { stdio: 'pipe' });
      } finally {
        work.cleanup();
      }
    },
  );
});

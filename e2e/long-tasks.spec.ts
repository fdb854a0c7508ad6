// No long task (over 50 ms) from our code while a signed-in page loads (the customer pages and each
// admin tab) or on its common actions (expand an order, change tab, open a dialog), with the CPU slowed down four times
// as Lighthouse's mobile profile does.
// A measurement of time, so it runs only when asked (LONG_TASKS=1 npx playwright test --workers=1
// e2e/long-tasks.spec.ts, one browser at a time): on a
// shared 2-core machine other work lengthens every task. It prints each step's long tasks and fails on any.
// With LONG_TASKS_PROFILE=<folder> it also writes each step's CPU profile there (<step>.cpuprofile, which Chrome
// DevTools' Performance panel opens), to find which code a long task runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type CDPSession, expect, type Page, test } from '@playwright/test';
import { ADMIN_TABS } from '../apps/web/src/features/admin/admin-tabs.ts';
import { buyThroughSandbox, signUp, uniqueEmail } from './support/helpers.ts';
import { E2E } from './support/ports.ts';

test.skip(!process.env.LONG_TASKS, 'a measurement: LONG_TASKS=1 runs it');
test.setTimeout(180_000);

interface LongTask {
  start: number;
  duration: number;
  attribution: string;
}

declare global {
  interface Window {
    storefrontLongTasks: LongTask[];
  }
}

/** Every long task of the page from its start, kept in the page (the observer is set before any script runs). */
async function observeLongTasks(page: Page) {
  await page.addInitScript(() => {
    window.storefrontLongTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const attribution = (entry as PerformanceEntry & { attribution?: { containerSrc?: string; name?: string }[] })
          .attribution?.[0];
        window.storefrontLongTasks.push({
          start: Math.round(entry.startTime),
          duration: Math.round(entry.duration),
          attribution: attribution?.containerSrc || attribution?.name || entry.name,
        });
      }
    }).observe({ type: 'longtask', buffered: true });
  });
}

const profileFolder = process.env.LONG_TASKS_PROFILE;

/** The long tasks since the last call (`step` names what was done), printed; with a profile folder, their profile. */
async function takeLongTasks(page: Page, cdp: CDPSession, step: string, found: Map<string, LongTask[]>) {
  // Two frames, so a task that has just ended is reported.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(undefined)))),
  );
  const tasks = await page.evaluate(() => window.storefrontLongTasks.splice(0));
  console.log(
    `${step}: ${tasks.length ? tasks.map((task) => `${task.duration} ms at ${task.start} ms (${task.attribution})`).join(', ') : 'no long task'}`,
  );
  if (tasks.length) found.set(step, tasks);
  if (profileFolder) {
    const { profile } = await cdp.send('Profiler.stop');
    const file = path.join(profileFolder, `${step.replaceAll(/\W+/g, '-')}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    await cdp.send('Profiler.start');
  }
}

async function slowDown(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  if (profileFolder) {
    mkdirSync(profileFolder, { recursive: true });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  return cdp;
}

// The steps find, click and wait for elements with plain DOM calls in the page and real mouse input rather than
// Playwright's locators: its selector engine runs in the page's main thread (a role query computes every element's
// accessible name; its script is compiled anew in every document), and at 4x slowdown its own long tasks would be
// reported as ours.

/** The element `selector` matches whose text includes `text` (the first visible one), inside `within` when given. */
interface Target {
  selector: string;
  text?: string;
  within?: string;
}

/** Waits until the target is in the page and visible, polling every 50 ms in tasks of its own. */
async function waitFor(page: Page, target: Target) {
  await page.evaluate(
    ({ selector, text, within }) =>
      new Promise<void>((resolve, reject) => {
        const started = performance.now();
        const poll = () => {
          const scope = within ? document.querySelector(within) : document;
          const found = [...(scope?.querySelectorAll(selector) ?? [])].some(
            (element) => (!text || element.textContent?.includes(text)) && element.checkVisibility(),
          );
          if (found) resolve();
          else if (performance.now() - started > 20_000) reject(new Error(`${selector} ${text ?? ''} never showed`));
          else setTimeout(poll, 50);
        };
        poll();
      }),
    target,
  );
}

/** Clicks the middle of the target with the mouse, as a person would, once the page is live. */
async function click(page: Page, target: Target) {
  // A page drawn on the server is inert until it hydrates: a click before that is lost (helpers.ts, pageLive).
  await waitFor(page, { selector: 'main:not(:has(> [inert]))' });
  await waitFor(page, target);
  const point = await page.evaluate(({ selector, text, within }) => {
    const scope = within ? document.querySelector(within) : document;
    const element = [...(scope?.querySelectorAll(selector) ?? [])].find(
      (candidate) => (!text || candidate.textContent?.includes(text)) && candidate.checkVisibility(),
    );
    if (!element) throw new Error(`${selector} ${text ?? ''} is not there`);
    element.scrollIntoView({ block: 'center' });
    const box = element.getBoundingClientRect();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }, target);
  await page.mouse.click(point.x, point.y);
}

test('the signed-in pages and their common actions run no task over 50 ms at 4× CPU slowdown', async ({ page }) => {
  await signUp(page, uniqueEmail('long-tasks'));
  await buyThroughSandbox(page, /Elite ISP Proxies/, /^10 IPs/);
  await observeLongTasks(page);
  const cdp = await slowDown(page);
  const found = new Map<string, LongTask[]>();

  for (const [path, heading] of [
    ['/dashboard/overview', 'Overview'],
    ['/dashboard/proxies', 'Proxies'],
    ['/dashboard/purchase', 'Purchase'],
    ['/dashboard/order-history', 'Order History'],
    ['/dashboard/settings', 'Settings'],
  ] as const) {
    await page.goto(path);
    // The page's own heading, not the one the server-drawn skeleton shows while the page's code loads.
    await waitFor(page, { selector: 'h1:not([data-page-skeleton] h1)', text: heading });
    await page.waitForLoadState('networkidle');
    await takeLongTasks(page, cdp, `load ${path}`, found);
  }

  const firstOrder = '[data-testid="order-card"]';
  await page.goto('/dashboard/proxies');
  await waitFor(page, { selector: firstOrder });
  await page.waitForLoadState('networkidle');
  await takeLongTasks(page, cdp, 'load /dashboard/proxies again', found);
  await click(page, { selector: 'button', text: 'Show proxies', within: firstOrder });
  await waitFor(page, { selector: 'table', within: firstOrder });
  await takeLongTasks(page, cdp, 'expand an order', found);
  await click(page, { selector: '[role="tab"]', text: 'Residential Proxies' });
  await waitFor(page, { selector: '[role="tab"][aria-selected="true"]', text: 'Residential Proxies' });
  await page.waitForLoadState('networkidle');
  await takeLongTasks(page, cdp, 'change tab', found);
  await click(page, { selector: '[role="tab"]', text: 'Elite ISP Proxies' });
  await waitFor(page, { selector: firstOrder });
  await takeLongTasks(page, cdp, 'change tab back', found);
  await click(page, { selector: 'button', text: 'Cancel', within: firstOrder });
  await waitFor(page, { selector: '[role="dialog"]', text: 'Cancel order?' });
  await takeLongTasks(page, cdp, 'open a dialog', found);

  expect([...found.entries()], 'long tasks (over 50 ms) by step').toEqual([]);
});

test('each admin tab loads, and its tabs change, with no task over 50 ms at 4× CPU slowdown', async ({ page }) => {
  await signUp(page, E2E.longTasksAdminEmail);
  await observeLongTasks(page);
  const cdp = await slowDown(page);
  const found = new Map<string, LongTask[]>();
  for (const tab of ADMIN_TABS) {
    const url = tab.value === 'inventory' ? '/dashboard/admin' : `/dashboard/admin?tab=${tab.value}`;
    await page.goto(url);
    await waitFor(page, { selector: '[role="tab"][aria-selected="true"]', text: tab.label });
    await page.waitForLoadState('networkidle');
    await takeLongTasks(page, cdp, `load ${url}`, found);
  }
  // From the last tab to each other one, as an operator moves around the console.
  for (const tab of ADMIN_TABS.slice(0, -1)) {
    await click(page, { selector: '[role="tab"]', text: tab.label });
    await waitFor(page, { selector: '[role="tab"][aria-selected="true"]', text: tab.label });
    await page.waitForLoadState('networkidle');
    await takeLongTasks(page, cdp, `change to ${tab.label}`, found);
  }

  expect([...found.entries()], 'long tasks (over 50 ms) by step').toEqual([]);
});

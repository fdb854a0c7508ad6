// Issue 39 item 3: no long task (over 50 ms) from our code while a signed-in page loads or on its common actions
// (expand an order, change tab, open a dialog), with the CPU slowed down four times as Lighthouse's mobile profile does.
// A measurement of time, so it runs only when asked (LONG_TASKS=1 npx playwright test e2e/long-tasks.spec.ts): on a
// shared 2-core machine other work lengthens every task. It prints each step's long tasks and fails on any.
import { type CDPSession, expect, type Page, test } from '@playwright/test';
import { buyThroughSandbox, signUp, uniqueEmail } from './support/helpers.ts';

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

/** The long tasks since the last call (`step` names what was done), printed. */
async function takeLongTasks(page: Page, step: string, found: Map<string, LongTask[]>) {
  // Two frames, so a task that has just ended is reported.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(undefined)))),
  );
  const tasks = await page.evaluate(() => window.storefrontLongTasks.splice(0));
  console.log(
    `${step}: ${tasks.length ? tasks.map((task) => `${task.duration} ms at ${task.start} ms (${task.attribution})`).join(', ') : 'no long task'}`,
  );
  if (tasks.length) found.set(step, tasks);
}

async function slowDown(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return cdp;
}

test('the signed-in pages and their common actions run no task over 50 ms at 4× CPU slowdown', async ({ page }) => {
  await signUp(page, uniqueEmail('long-tasks'));
  await buyThroughSandbox(page, /Elite ISP Proxies/, /^10 IPs/);
  await observeLongTasks(page);
  await slowDown(page);
  const found = new Map<string, LongTask[]>();

  for (const [path, heading] of [
    ['/dashboard/overview', 'Overview'],
    ['/dashboard/proxies', 'Proxies'],
    ['/dashboard/purchase', 'Purchase'],
    ['/dashboard/order-history', 'Order History'],
    ['/dashboard/settings', 'Settings'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await takeLongTasks(page, `load ${path}`, found);
  }

  await page.goto('/dashboard/proxies');
  const order = page.getByTestId('order-card').first();
  await expect(order).toBeVisible();
  await page.waitForLoadState('networkidle');
  await takeLongTasks(page, 'load /dashboard/proxies again', found);
  await order.getByRole('button', { name: 'Show proxies' }).click();
  await expect(order.getByRole('table')).toBeVisible();
  await takeLongTasks(page, 'expand an order', found);
  await page.getByRole('tab', { name: 'Residential Proxies' }).click();
  await expect(page.getByRole('tab', { name: 'Residential Proxies', selected: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await takeLongTasks(page, 'change tab', found);
  await page.getByRole('tab', { name: 'Elite ISP Proxies' }).click();
  await page.getByTestId('order-card').first().getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await takeLongTasks(page, 'open a dialog', found);

  expect([...found.entries()], 'long tasks (over 50 ms) by step').toEqual([]);
});

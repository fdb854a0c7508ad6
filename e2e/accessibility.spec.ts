import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { paths, pathTo } from '@storefront/contract';
import { signUp } from './support/helpers.ts';
import { E2E } from './support/ports.ts';

/** Serious and critical findings of axe on the page as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Waits for the page's main heading and for Mantine's transitions, then asks axe. */
async function check(page: Page, url: string, problems: string[]) {
  await page.goto(url);
  await expect(page.locator('h1, h2').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
  for (const line of await seriousViolations(page)) problems.push(`${url}: ${line}`);
}

test.describe.configure({ mode: 'serial' });

// Every page of the app (the contract's list, so a new page is checked without a change here), in both colour schemes,
// signed in as an administrator so the console and every dashboard page open; the sandbox's pages with a real purchase.
for (const scheme of ['light', 'dark'] as const) {
  test(`every page has no serious or critical accessibility violation (${scheme} scheme)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext();
    await context.addInitScript((value) => localStorage.setItem('mantine-color-scheme-value', value), scheme);
    const page = await context.newPage();
    const problems: string[] = [];
    const publicPages = [paths.home, paths.privacy, paths.terms, paths.login, paths.signup, paths.forgotPassword];
    for (const url of [...publicPages, `${paths.resetPassword}?token=x`, '/no-such-page'])
      await check(page, url, problems);

    if (scheme === 'light') await signUp(page, E2E.a11yAdminEmail);
    else {
      await page.goto(paths.login);
      await page.getByRole('textbox', { name: /^Email/ }).fill(E2E.a11yAdminEmail);
      await page.getByRole('textbox', { name: /^password/i }).fill('Str0ng!pass');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page).toHaveURL(/\/dashboard\/overview$/);
    }
    for (const url of [
      paths.overview,
      paths.proxies,
      paths.purchase,
      paths.orderHistory,
      paths.settings,
      paths.admin,
    ]) {
      await check(page, url, problems);
    }

    // The sandbox's pages: a checkout waiting to be paid, then the invoice and the billing page of the paid order.
    await page.goto(paths.purchase);
    await page.getByRole('button', { name: /Elite ISP/ }).click();
    await page.getByRole('group', { name: 'Bundles' }).getByRole('button', { name: /^5\b/ }).click();
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\//);
    await check(page, new URL(page.url()).pathname, problems);
    await page.getByRole('button', { name: 'Pay with test card' }).click();
    await expect(page).toHaveURL(/\/dashboard\/proxies/);
    const history = (await (await page.request.get('/api/orders/history')).json()) as {
      order_id: string;
      hosted_invoice_url?: string;
    }[];
    const paid = history.find((entry) => entry.hosted_invoice_url?.includes('/sandbox/invoices/'));
    expect(paid).toBeDefined();
    await check(page, new URL(paid?.hosted_invoice_url ?? '/').pathname, problems);
    await check(page, pathTo(paths.sandboxBilling, { id: paid?.order_id ?? '' }), problems);

    expect(problems).toEqual([]);
    await context.close();
  });
}

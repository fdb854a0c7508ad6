import { expect, type Page, test } from '@playwright/test';
import { paths, pathTo } from '@storefront/contract';
import { Audit, NARROW, PAIR_A, PAIR_B, VIEWS, WIDE } from './support/axe.ts';
import { buyThroughSandbox, confirmField, passwordField, signUp, uniqueEmail } from './support/helpers.ts';
import { E2E } from './support/ports.ts';

// axe-core on every page of the app, as first shown and with its dialogs, menus, toasts and form errors open, at 1280 and
// 375 px in both colour schemes; any finding fails (WCAG 2.2 AA and axe's best practices). The administrator's console
// is checked in accessibility-admin.spec.ts, after the customers' tests (it runs with the console's own tests). Each page
// and each kind of overlay (dialog, menu, listbox, popover, toast, form error) is checked in all four views; a further
// state of the same kind in two views that cover both widths and both schemes between them.

/** Opens `url` and waits for the page itself (not a signed-in page's server-drawn skeleton), its heading and its data. */
async function open(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator('[data-page-skeleton]')).toHaveCount(0);
  await expect(page.locator('h1').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
}

test('public pages, their menus and their form errors', async ({ page }) => {
  test.setTimeout(480_000);
  const audit = new Audit(page);

  await open(page, paths.home);
  await audit.check('landing');
  // The Products menu, opened from the keyboard (the navigation shows it above 768 px); the drawer on a phone.
  await audit.check('landing, Products menu open', WIDE, async () => {
    if (await page.getByRole('menu').isVisible()) return;
    await page.getByRole('button', { name: 'Products' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
  });
  await page.keyboard.press('Escape');
  await audit.check('landing, navigation drawer open', NARROW, async () => {
    if (await page.getByRole('dialog').isVisible()) return;
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
  });

  for (const url of [
    paths.privacy,
    paths.terms,
    paths.forgotPassword,
    `${paths.resetPassword}?token=x`,
    '/no-such-page',
  ]) {
    await open(page, url);
    await audit.check(url);
  }

  // Sign-in: the form as shown, then the auth service's refusal of a wrong password.
  await open(page, paths.login);
  await audit.check(paths.login);
  await page.getByRole('textbox', { name: /^Email/ }).fill('nobody@e2e.test');
  await passwordField(page).fill('Wr0ng!password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await audit.check(`${paths.login}, error`, PAIR_A);

  // Sign-up: each field's own error under it.
  await open(page, paths.signup);
  await audit.check(paths.signup);
  await page.getByRole('textbox', { name: /^Email/ }).fill('not-an-address');
  await passwordField(page).fill('short');
  await confirmField(page).fill('other');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.locator('.mantine-InputWrapper-error').first()).toBeVisible();
  await audit.check(`${paths.signup}, field errors`, PAIR_B);

  expect(audit.findings).toEqual([]);
});

// A customer's pages in two halves, each with a customer of its own, so that the two run side by side: first what a
// new customer sees up to paying, then what one with orders sees.
test('a new customer’s pages, Purchase and the sandbox’s payment page, with their menu, toasts and errors', async ({
  page,
}) => {
  test.setTimeout(480_000);
  const audit = new Audit(page);
  await signUp(page, uniqueEmail('a11y'));

  for (const url of [paths.overview, paths.proxies, paths.usage, paths.orderHistory]) {
    await open(page, url);
    await audit.check(`${url}, nothing bought`);
  }

  // The dashboard's side menu on a phone.
  await audit.check('dashboard menu open', NARROW, async () => {
    const menu = page.getByRole('button', { name: /(Open|Close) menu/ });
    if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
    await expect(page.getByRole('link', { name: 'Purchase', exact: true })).toBeInViewport();
  });
  await page.keyboard.press('Escape');

  // Purchase: the page, the toast of a checkout without a choice (it closes after 4 s: shown again in each view), and
  // a product and bundle chosen.
  await open(page, paths.purchase);
  await audit.check(paths.purchase);
  await audit.check(`${paths.purchase}, toast`, VIEWS, async () => {
    await page.getByRole('button', { name: 'Checkout' }).click();
    // The same toast again replaces the one on screen (one per cause): the newest is last.
    await expect(page.getByRole('alert').filter({ hasText: 'Selection Required' }).last()).toBeVisible();
  });
  await page.getByRole('button', { name: /Elite ISP Proxies/ }).click();
  await page
    .getByRole('group', { name: 'Bundles' })
    .getByRole('button', { name: /^10 IPs/ })
    .click();
  await audit.check(`${paths.purchase}, chosen`, PAIR_A);

  // The sandbox's payment page, then its refusal of a declined card.
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await audit.check('sandbox checkout');
  await page.getByRole('button', { name: 'Simulate declined card' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'declined' })).toBeVisible();
  await audit.check('sandbox checkout, declined', PAIR_B);
  await page.getByRole('button', { name: 'Pay with test card' }).click();
  await expect(page).toHaveURL(/\/dashboard\/proxies\?tab=/);

  expect(audit.findings).toEqual([]);
});

test('a customer’s orders: Proxies, Order History, the invoice, Overview and Settings, with their dialogs, menus and errors', async ({
  page,
}) => {
  test.setTimeout(480_000);
  const audit = new Audit(page);
  await signUp(page, uniqueEmail('a11y-orders'));
  await buyThroughSandbox(page, /Elite ISP Proxies/, /^10 IPs/);

  // Proxies with an order: its list open (pagination), the List Link popover, the Cancel dialog. (Its format is the
  // browser's own select; a list box is checked open in the admin's Add Coupon dialog.)
  await buyThroughSandbox(page, /Elite ISP Proxies/, /^5 IPs/);
  await expect(page.getByTestId('order-card')).toHaveCount(2);
  await expect(page.locator('h1')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await audit.check(`${paths.proxies}, two orders`, PAIR_A);
  const order = page.getByTestId('order-card').nth(1);
  await order.getByRole('button', { name: 'Show proxies' }).click();
  // The pagination's arrows have names (Mantine's are icons alone).
  await expect(order.getByRole('button', { name: 'Next page' })).toBeVisible();
  await expect(order.getByRole('button', { name: 'Previous page' })).toBeVisible();
  await audit.check(`${paths.proxies}, list open`, PAIR_B);
  await page.getByRole('button', { name: 'List Link' }).click();
  await expect(page.getByTestId('proxy-list-link')).toBeVisible();
  await audit.check(`${paths.proxies}, List Link popover`);
  await page.keyboard.press('Escape');
  await order.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog', { name: 'Cancel order?' })).toBeVisible();
  await audit.check(`${paths.proxies}, Cancel dialog`);
  await page.getByRole('button', { name: 'Keep Order' }).click();

  // Order History, the invoice and the billing page of the paid order.
  await open(page, paths.orderHistory);
  await audit.check(`${paths.orderHistory}, two orders`, PAIR_A);
  const history = (await (await page.request.get('/api/orders/history')).json()) as {
    order_id: string;
    hosted_invoice_url?: string;
  }[];
  const paid = history.find((entry) => entry.hosted_invoice_url?.includes('/sandbox/invoices/'));
  expect(paid).toBeDefined();
  await open(page, new URL(paid?.hosted_invoice_url ?? '/').pathname);
  await audit.check('sandbox invoice');
  await open(page, pathTo(paths.sandboxBilling, { id: paid?.order_id ?? '' }));
  await audit.check('sandbox billing');
  // The card page of automatic top-up, opened as the Residential tab's Save a card does.
  const started = await page.request.post('/api/residential/top-up/card', { headers: { origin: E2E.appUrl } });
  const setup = (await started.json()) as { url: string };
  await open(page, new URL(setup.url).pathname);
  await audit.check('sandbox card page');

  // Overview with orders; Settings, its dialogs and their errors.
  await open(page, paths.overview);
  await audit.check(`${paths.overview}, two orders`, PAIR_B);
  await open(page, paths.settings);
  await audit.check(paths.settings);
  await page.getByRole('button', { name: 'Change Password' }).click();
  const changePassword = page.getByRole('dialog');
  await expect(changePassword).toBeVisible();
  await audit.check(`${paths.settings}, Change Password dialog`, PAIR_A);
  await changePassword.getByRole('button', { name: 'Update Password' }).click();
  await expect(changePassword.locator('.mantine-InputWrapper-error').first()).toBeVisible();
  await audit.check(`${paths.settings}, Change Password dialog, errors`, PAIR_B);
  await page.keyboard.press('Escape');
  await expect(changePassword).toBeHidden();
  await page.getByRole('button', { name: 'Create API Key' }).click();
  const createKey = page.getByRole('dialog', { name: 'Create an API key' });
  await createKey.getByRole('button', { name: 'Create Key' }).click();
  await expect(createKey.locator('.mantine-InputWrapper-error')).toBeVisible();
  await audit.check(`${paths.settings}, Create an API key dialog, error`, PAIR_A);
  await page.keyboard.press('Escape');
  await expect(createKey).toBeHidden();
  await page.getByRole('textbox', { name: 'Add an IP' }).fill('not an ip');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('alert').or(page.locator('.mantine-InputWrapper-error')).first()).toBeVisible();
  await audit.check(`${paths.settings}, Add an IP error`, PAIR_B);

  expect(audit.findings).toEqual([]);
});

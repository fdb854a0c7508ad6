import { expect, type Locator, type Page, test } from '@playwright/test';
import { paths } from '@storefront/contract';
import { STRONG_PASSWORD, signUp, uniqueEmail } from './support/helpers.ts';

// The keyboard alone, as a person without a mouse uses the shop: Tab, Shift+Tab, Enter, Space and Escape only.

/** Presses Tab until `target` has the focus (at most `max` times): the way a keyboard user gets to a control. */
async function tabTo(page: Page, target: Locator, max = 60) {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < max; presses += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${target} not reached in ${max} presses of Tab`);
}

/** The focused element shows a ring: a solid outline at least 2 px wide (styles/accessibility.css). */
async function expectFocusRing(target: Locator) {
  await expect(target).toBeFocused();
  const outline = await target.evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
  });
  expect(outline.style).toBe('solid');
  expect(outline.width).toBeGreaterThanOrEqual(2);
}

const announced = (page: Page) => page.getByTestId('live-announcer');

test('from the landing page through a purchase to copying the proxy list, by keyboard only', async ({ browser }) => {
  test.setTimeout(180_000);
  // The account is made beforehand (its e-mail confirmation is not part of the walk).
  const email = uniqueEmail('keyboard');
  const setup = await browser.newContext();
  await signUp(await setup.newPage(), email);
  await setup.close();

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();

  await page.goto(paths.home);
  await expect(page.locator('h1')).toBeVisible();
  // The first stop is the skip link; it moves the focus to the main content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();

  // Sign in: after the route change the focus is on the page's heading.
  await page.keyboard.press('Shift+Tab');
  await tabTo(page, page.getByRole('link', { name: 'Purchase / Sign In' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await tabTo(page, page.getByRole('textbox', { name: /^Email/ }));
  await page.keyboard.type(email);
  await tabTo(page, page.getByRole('textbox', { name: /^password/i }));
  await page.keyboard.type(STRONG_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeFocused();

  // Purchase: the product and bundle cards show their focus, Space and Enter choose them.
  await tabTo(page, page.getByRole('link', { name: 'Purchase', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Purchase Proxies' })).toBeFocused();
  const product = page.getByRole('button', { name: /Elite ISP Proxies/ });
  await tabTo(page, product);
  await expectFocusRing(product);
  await page.keyboard.press('Space');
  await expect(product).toHaveAttribute('aria-pressed', 'true');
  const bundle = page.getByRole('group', { name: 'Bundles' }).getByRole('button', { name: /^5 IPs/ });
  await tabTo(page, bundle);
  await expectFocusRing(bundle);
  await page.keyboard.press('Enter');
  await expect(bundle).toHaveAttribute('aria-pressed', 'true');
  await tabTo(page, page.getByRole('button', { name: 'Checkout' }));
  await page.keyboard.press('Enter');

  // The sandbox's payment page.
  await expect(page).toHaveURL(/\/sandbox\/checkout\//, { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  await tabTo(page, page.getByRole('button', { name: 'Pay with test card' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/proxies\?tab=/);
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();

  // The List Link popover takes the focus, copies its link, and gives the focus back on Escape.
  const listLink = page.getByRole('button', { name: 'List Link' });
  await tabTo(page, listLink);
  await page.keyboard.press('Enter');
  const link = page.getByTestId('proxy-list-link');
  await expect(link).toBeVisible();
  const popover = page.getByRole('dialog', { name: 'List Link' });
  await expect.poll(() => popover.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await tabTo(page, popover.getByRole('button', { name: 'Copy Link' }), 10);
  await page.keyboard.press('Enter');
  await expect(announced(page)).toHaveText(/^Copied/);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await link.textContent());
  await page.keyboard.press('Escape');
  await expect(link).toBeHidden();
  await expect(listLink).toBeFocused();

  // The order's proxy list, copied whole.
  await tabTo(page, page.getByRole('button', { name: 'Show proxies' }));
  await page.keyboard.press('Enter');
  const copyAll = page.getByRole('button', { name: 'Copy all' });
  await tabTo(page, copyAll);
  await expectFocusRing(copyAll);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  await expect(announced(page)).toHaveText(/^Copied/);
  const copied = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
  expect(copied).toHaveLength(5);
  for (const line of copied) expect(line).toMatch(/^\d+\.\d+\.\d+\.\d+:\d+/);
  await context.close();
});

test('the landing Products menu opens from the keyboard every time, and Escape gives the focus back', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(paths.home);
  const trigger = page.getByRole('button', { name: 'Products' });
  await tabTo(page, trigger);
  await expectFocusRing(trigger);
  for (let time = 1; time <= 3; time += 1) {
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('menuitem').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(trigger).toBeFocused();
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
  }
});

test('on a phone the dashboard menu says whether it is open, and Escape closes it', async ({ page }) => {
  await signUp(page, uniqueEmail('phone-menu'));
  await page.setViewportSize({ width: 375, height: 740 });
  // The server-drawn frame answers keys once the app has taken it over: the page itself has replaced the skeleton.
  await expect(page.locator('[data-page-skeleton]')).toHaveCount(0);
  const burger = page.getByRole('button', { name: 'Open menu' });
  await expect(burger).toHaveAttribute('aria-expanded', 'false');
  await burger.focus();
  await page.keyboard.press('Enter');
  const close = page.getByRole('button', { name: 'Close menu' });
  await expect(close).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('link', { name: 'Purchase', exact: true })).toBeInViewport();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('link', { name: 'Purchase', exact: true })).not.toBeInViewport();
});

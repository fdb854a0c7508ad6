import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.describe('landing page', () => {
  test('shows its sections in the order of the spec', async ({ page }) => {
    await page.goto('/');
    const order = await page.evaluate(() => {
      const marks = [
        document.querySelector('header'),
        document.querySelector('h1'),
        document.querySelector('[aria-label="Supported websites carousel"]'),
        [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Why Choose Us?'),
        document.getElementById('products'),
        document.getElementById('pricing'),
        document.querySelector('footer'),
      ];
      return marks.map((el) => (el ? el.getBoundingClientRect().top + window.scrollY : -1));
    });
    expect(order).not.toContain(-1);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    await expect(page.getByRole('heading', { name: 'Our Products' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Simple, Transparent Pricing' })).toBeVisible();
    for (const card of ['Lightning Fast', 'Ultra Secure', 'Easy Setup', 'High Performance']) {
      await expect(page.getByRole('heading', { name: card })).toBeVisible();
    }
    const carousel = page.getByLabel('Supported websites carousel');
    await expect(carousel.locator('li:not([aria-hidden="true"])')).toHaveCount(14);
    await expect(page.locator('footer')).toContainText('© 2025');
  });

  test('the starfield canvas is a decorative backdrop', async ({ page }) => {
    await page.goto('/');
    const canvas = page.getByTestId('starfield');
    await expect(canvas).toHaveAttribute('aria-hidden', 'true');
    const background = await page.evaluate(
      () => getComputedStyle(document.querySelector('main')!.parentElement!).backgroundColor,
    );
    expect(background).toBe('rgb(0, 0, 0)');
  });

  test('the Products dropdown scrolls smoothly to Our Products and closes', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Products' }).hover();
    const items = page.getByRole('menuitem');
    await expect(items).toHaveCount(3);
    await expect(items).toHaveText(['Elite ISP Proxies', 'PK1 ISP Proxies', 'Residential Proxies']);
    await page.getByRole('menuitem', { name: 'PK1 ISP Proxies' }).click();
    await expect(page.getByRole('menu')).toBeHidden();
    await expect
      .poll(() => page.evaluate(() => Math.abs(document.getElementById('products')!.getBoundingClientRect().top)))
      .toBeLessThan(80);
  });

  test('the Products menu opens from the keyboard', async ({ page }) => {
    await page.goto('/');
    const products = page.getByRole('button', { name: 'Products' });
    await products.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem')).toHaveCount(3);
    await page.getByRole('menuitem', { name: 'Residential Proxies' }).press('Enter');
    await expect(page.getByRole('menu')).toBeHidden();
  });

  test('every Purchase Proxies and Get Started button leads to /signup; Purchase / Sign In to /login', async ({
    page,
  }) => {
    await page.goto('/');
    const buttons = page.getByRole('link', { name: /^(Purchase Proxies|Get Started)$/ });
    expect(await buttons.count()).toBeGreaterThanOrEqual(7);
    for (const href of await buttons.evaluateAll((links) => links.map((a) => a.getAttribute('href')))) {
      expect(href).toBe('/signup');
    }
    await expect(page.getByRole('link', { name: 'Purchase / Sign In' })).toHaveAttribute('href', '/login');
    const chat = page.getByRole('link', { name: /Community/ }).first();
    await expect(chat).toHaveAttribute('target', '_blank');
    await expect(chat).toHaveAttribute('rel', /noopener/);
  });

  test('pricing shows the prices and stock the API serves', async ({ page, request }) => {
    const api = await (await request.get('/api/pricing')).json();
    await page.goto('/');
    for (const plan of api.plans as { id: string; price: number; stock: number }[]) {
      const card = page.getByTestId(`plan-${plan.id}`);
      const price = plan.price % 1 === 0 ? `$${plan.price}` : `$${plan.price.toFixed(2)}`;
      await expect(card.getByTestId('plan-price')).toHaveText(price);
      await expect(card.getByTestId('plan-stock')).toContainText(plan.stock.toLocaleString('en-US'));
    }
  });

  test('at 375 px the burger opens a drawer with the navigation', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Purchase / Sign In' })).toBeHidden();
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('link', { name: 'Purchase / Sign In' })).toHaveAttribute('href', '/login');
    await drawer.getByRole('button', { name: 'Pricing' }).click();
    await expect(drawer).toBeHidden();
    await expect
      .poll(() => page.evaluate(() => Math.abs(document.getElementById('pricing')!.getBoundingClientRect().top)))
      .toBeLessThan(80);
  });

  test('has no serious or critical accessibility violation', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('plan-isp_proxies').getByTestId('plan-stock')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('legal and error pages', () => {
  for (const [path, title] of [
    ['/privacy', 'Privacy Policy'],
    ['/terms', 'Terms of Service'],
  ] as const) {
    test(`${path} is a complete, accessible policy last updated 2 September 2025`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByText('Last updated: 2 September 2025')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });
  }

  test('the terms state the business rules', async ({ page }) => {
    await page.goto('/terms');
    const text = await page.locator('main').innerText();
    expect(text).toMatch(/renew automatically/);
    expect(text).toMatch(/terminates at the end of its current billing cycle/);
    expect(text).toMatch(/All sales are final/);
    expect(text).toMatch(/Acceptable use/i);
    expect(text).toMatch(/99\.9% uptime\. This is a goal/);
    expect(text).toMatch(/chat community/);
  });

  test('an unknown page answers 404 with the 404 page', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('server rendering', () => {
  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the landing page shows its content, live prices and working links', async ({ page, request }) => {
      const api = await (await request.get('/api/pricing')).json();
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Proxies built for');
      for (const plan of api.plans as { id: string; stock: number }[]) {
        await expect(page.getByTestId(`plan-${plan.id}`).getByTestId('plan-stock')).toContainText(
          plan.stock.toLocaleString('en-US'),
        );
      }
      await page.getByRole('link', { name: 'Purchase / Sign In' }).click();
      await expect(page).toHaveURL(/\/login$/);
    });

    test('the legal and 404 pages are readable and styled', async ({ page }) => {
      await page.goto('/privacy');
      await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
      await expect(page).toHaveTitle(/^Privacy Policy \| /);
      // The page's own styles (not the landing's) are linked by the server: Mantine's Anchor colour, not the browser's.
      const policyLink = page.locator('footer').getByRole('link', { name: 'Privacy Policy' });
      expect(await policyLink.evaluate((link) => getComputedStyle(link).color)).toBe('rgb(25, 113, 194)');
      const response = await page.goto('/no-such-page');
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    });
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`the public pages hydrate without an error in the ${scheme} scheme`, async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem('mantine-color-scheme-value', value), scheme);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        // The 404 page's own status is reported as a failed resource; anything else is a fault.
        if (message.type() === 'error' && !message.text().includes('status of 404')) errors.push(message.text());
      });
      for (const path of ['/', '/privacy', '/terms', '/no-such-page']) {
        await page.goto(path);
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        await page.waitForLoadState('networkidle');
      }
      expect(errors).toEqual([]);
      // The colour switch rendered by the server names the other scheme once the browser has taken over.
      const other = scheme === 'dark' ? 'light' : 'dark';
      await page.getByRole('button', { name: `Switch to ${other} colour scheme` }).click();
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', other);
      await expect(page.getByRole('button', { name: `Switch to ${scheme} colour scheme` })).toBeVisible();
    });
  }
});

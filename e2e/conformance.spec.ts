import { expect, test } from '@playwright/test';
import { buyThroughSandbox, nextPageDrawnByBrowser, signUp, uniqueEmail } from './support/helpers.ts';

// The customer screens' texts and behaviours exactly as the spec quotes them, at both widths.
for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 860 } });

    test('a customer on the admin page sees the spec’s Access Denied text', async ({ page }) => {
      await signUp(page, uniqueEmail('denied'));
      await page.goto('/dashboard/admin');
      const alert = page.getByRole('alert').filter({ hasText: 'Access Denied' });
      await expect(alert).toContainText(
        "You don't have permission to access this page. Administrator privileges are required.",
      );
    });

    test('a failed order fetch shows the spec message, not an empty list', async ({ page }) => {
      await signUp(page, uniqueEmail('fetchfail'));
      await page.route('**/api/orders', (route) => route.fulfill({ status: 500, body: '{"message":"db down"}' }));
      // The browser's own read fails (the server would have drawn the page from its own read).
      await nextPageDrawnByBrowser(page);
      await page.goto('/dashboard/proxies');
      await expect(page.getByRole('alert')).toContainText('Failed to fetch orders');
      await expect(page.getByText('db down')).toHaveCount(0);
      await expect(page.getByText('No ISP proxies')).toHaveCount(0);
    });

    test('the Purchase page on a pricing error, the custom amount bounds and the singular unit', async ({ page }) => {
      await signUp(page, uniqueEmail('pricing'));
      await page.route('**/api/pricing', (route) => route.fulfill({ status: 500, body: '{"message":"no prices"}' }));
      await nextPageDrawnByBrowser(page);
      await page.goto('/dashboard/purchase');
      await expect(page.getByRole('button', { name: 'Pricing Error - Cannot Checkout' })).toBeDisabled();
      await page.unroute('**/api/pricing');

      await page.goto('/dashboard/purchase');
      await page.getByRole('button', { name: /Elite ISP Proxies/ }).click();
      await page
        .getByRole('group', { name: 'Bundles' })
        .getByRole('button', { name: /^Custom/ })
        .click();
      const amount = page.getByRole('textbox', { name: /Custom amount/ });
      await amount.fill('20000');
      await amount.blur();
      await expect(amount).toHaveValue('10000');
      await amount.fill('1');
      await amount.blur();
      await expect(page.getByText('1 IP', { exact: true })).toBeVisible();
    });

    test('the landing gives "from" only for Elite ISP', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByTestId('product-isp_proxies')).toContainText('from $2.50 per month');
      await expect(page.getByTestId('product-pk1_isp_proxies')).toContainText('$2.50 per month');
      await expect(page.getByTestId('product-pk1_isp_proxies')).not.toContainText('from');
    });

    test('/auth/callback and the dashboard say what they wait for while their code loads', async ({ page }) => {
      await page.route('**/assets/auth-callback-page-*.js', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 800));
        await route.continue();
      });
      await page.goto('/auth/callback');
      await expect(page.getByText('Completing authentication...')).toBeVisible();

      await page.route('**/assets/dashboard-layout-*.js', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 800));
        await route.continue();
      });
      await page.goto('/dashboard/overview');
      await expect(page.getByText('Loading...')).toBeVisible();
    });

    test('a page whose code is still loading waits inside the layout, which keeps its navigation', async ({ page }) => {
      await signUp(page, uniqueEmail('lazy'));
      await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
      await page.route('**/assets/order-history-page-*.js', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      // Drawn by the browser (a visitor the server does not draw for): a skeleton, inside the layout.
      await nextPageDrawnByBrowser(page);
      await page.goto('/dashboard/order-history');
      await expect(page.getByRole('main').getByRole('status')).toHaveText('Loading...');
      await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeAttached();
      await expect(page.getByRole('button', { name: 'Sign Out' })).toBeAttached();
      // Then the page itself (the skeleton draws its heading too while the code loads).
      await expect(page.locator('[data-page-skeleton]')).toHaveCount(0);
      await expect(page.getByRole('heading', { name: 'Order History' })).toBeVisible();

      // Drawn by the server for its reader: the page itself at once, inert (not clickable) until its code has taken
      // it over; never replaced by a skeleton meanwhile.
      await page.goto('/dashboard/order-history');
      const drawn = page.locator('main [inert]');
      await expect(drawn).toContainText('Refresh');
      await expect(page.locator('[data-page-skeleton]')).toHaveCount(0);
      await expect(drawn).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
    });

    test('Checkout Started shows before the payment page; the cancel dialog warns; references read cleanly', async ({
      page,
    }) => {
      await signUp(page, uniqueEmail('started'));
      await page.goto('/dashboard/purchase');
      await page.getByRole('button', { name: /Elite ISP Proxies/ }).click();
      await page
        .getByRole('group', { name: 'Bundles' })
        .getByRole('button', { name: /^5 IPs/ })
        .click();
      await page.getByRole('button', { name: 'Checkout' }).click();
      await expect(page.getByText('Checkout Started')).toBeVisible();
      await expect(page).toHaveURL(/\/sandbox\/checkout\//);
      await page.getByRole('button', { name: 'Pay with test card' }).click();
      await expect(page).toHaveURL(/tab=isp_proxies$/);

      await page.getByTestId('order-card').getByRole('button', { name: 'Cancel' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel order?' });
      await expect(dialog).toContainText('This cannot be undone');
      await expect(dialog).toContainText('you lose access to these proxy endpoints');
      await dialog.getByRole('button', { name: 'Keep Order' }).click();

      await page.goto('/dashboard/order-history');
      // The phone's cards and the wider screen's table are both in the page; the width shows one.
      const reference = page
        .getByText(/^(Ref )?[A-Z0-9]{12}$/i)
        .filter({ visible: true })
        .first();
      await expect(reference).toBeVisible();
      expect((await reference.textContent())?.replace(/^Ref /, '')).toMatch(/^[0-9A-F]{12}$/i);
    });

    test('the sandbox pages follow the dark scheme, and a printed invoice is black on white', async ({ page }) => {
      await signUp(page, uniqueEmail('dark'));
      await page.evaluate(() => localStorage.setItem('mantine-color-scheme-value', 'dark'));
      await buyThroughSandbox(page, /Elite ISP Proxies/, /^5 IPs/);
      const history = (await (await page.request.get('/api/orders/history')).json()) as {
        hosted_invoice_url: string;
      }[];
      await page.goto(history[0]?.hosted_invoice_url ?? '');
      await expect(page.getByRole('heading', { name: 'Invoice' })).toBeVisible();
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(await background()).not.toBe('rgb(255, 255, 255)');
      await page.emulateMedia({ media: 'print' });
      expect(await background()).toBe('rgb(255, 255, 255)');
      const heading = page.getByRole('heading', { name: 'Invoice' });
      expect(await heading.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(0, 0, 0)');
    });
  });
}

import { expect, test } from '@playwright/test';
import { buyThroughSandbox, signUp, uniqueEmail } from './support/helpers.ts';

test.describe('buying through the sandbox provider', () => {
  test('buy 5 Elite ISP with a coupon, see the order history entry and its invoice', async ({ page, context }) => {
    await signUp(page, uniqueEmail('buyer'));
    await page.getByRole('link', { name: 'Purchase', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Purchase Proxies' })).toBeVisible();

    // Checkout without a choice says what is missing.
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page.getByText('Please select a proxy type and bundle before checkout.')).toBeVisible();

    await page.getByRole('button', { name: /Elite ISP Proxies/ }).click();
    await page
      .getByRole('group', { name: 'Bundles' })
      .getByRole('button', { name: /^5 IPs/ })
      .click();
    await expect(page.getByTestId('order-total')).toHaveText('$12.50');
    await page.getByRole('textbox', { name: 'Coupon code' }).fill('  welcome10 ');
    await page.getByRole('button', { name: 'Checkout' }).click();
    // The spec's notice, on screen before the payment page opens.
    await expect(page.getByText('Checkout Started')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/purchase$/);

    await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/);
    await expect(page.getByText('no real money moves')).toBeVisible();
    await expect(page.getByText('Discount (WELCOME10)')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Pay $11.25' })).toBeVisible();

    await page.getByRole('button', { name: 'Simulate declined card' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined' })).toBeVisible();

    await page.getByRole('button', { name: 'Pay with test card' }).click();
    await expect(page).toHaveURL(/\/dashboard\/proxies\?tab=isp_proxies$/);

    await page.getByRole('link', { name: 'Order History' }).click();
    await expect(page.getByRole('heading', { name: 'Order History' })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: 'Elite ISP Proxies' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('$11.25');
    await expect(row.getByText('paid')).toBeVisible();

    const invoiceLink = row.getByRole('link', { name: 'View invoice' });
    await expect(invoiceLink).toHaveAttribute('target', '_blank');
    const [invoicePage] = await Promise.all([context.waitForEvent('page'), invoiceLink.click()]);
    await expect(invoicePage.getByRole('heading', { name: 'Invoice' })).toBeVisible();
    await expect(invoicePage.getByText('Amount paid')).toBeVisible();
    await expect(invoicePage.getByText('−$1.25')).toBeVisible();
    await expect(invoicePage.getByText('Elite ISP Proxies: 5 IPs for one month')).toBeVisible();

    // The delivered IPs count on the Overview.
    await page.getByRole('link', { name: 'Overview' }).click();
    await expect(
      page.getByRole('group', { name: 'Active Elite ISP Proxies' }).getByText('5', { exact: true }),
    ).toBeVisible();
  });

  test('a refused coupon shows Checkout Error with the reason, and the order history starts empty', async ({
    page,
  }) => {
    await signUp(page, uniqueEmail('coupon'));
    await page.goto('/dashboard/order-history');
    await expect(page.getByText('No orders yet')).toBeVisible();
    await expect(
      page.getByText('Your order history will appear here once you make your first purchase.'),
    ).toBeVisible();

    await page.goto('/dashboard/purchase');
    await page.getByRole('button', { name: /Residential Proxies/ }).click();
    await page
      .getByRole('group', { name: 'Bundles' })
      .getByRole('button', { name: /^Custom/ })
      .click();
    const amount = page.getByRole('textbox', { name: /Custom amount/ });
    await amount.fill('3');
    await expect(page.getByTestId('order-total')).toHaveText('$15');
    await page.getByRole('textbox', { name: 'Coupon code' }).fill('NOSUCHCODE');
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page.getByText('Checkout Error')).toBeVisible();
    await expect(page.getByText('This coupon code does not exist.')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/purchase$/);
  });

  test('Selection Required shows once however often Checkout is pressed, and never over Checkout or the menu', async ({
    page,
  }) => {
    await signUp(page, uniqueEmail('toasts'));
    const overlaps = (a: { x: number; y: number; width: number; height: number } | null, b: typeof a) =>
      a !== null &&
      b !== null &&
      a.x < b.x + b.width &&
      b.x < a.x + a.width &&
      a.y < b.y + b.height &&
      b.y < a.y + a.height;
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/dashboard/purchase');
      const checkout = page.getByRole('button', { name: 'Checkout' });
      for (let press = 0; press < 3; press++) await checkout.click();
      const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Selection Required' });
      await expect(toast).toHaveCount(1);
      await expect(toast).toBeVisible();
      const box = await toast.boundingBox();
      expect(overlaps(box, await checkout.boundingBox()), `${width} px: over Checkout`).toBe(false);
      if (width === 375) {
        const menu = page.getByRole('button', { name: 'Open menu' });
        expect(overlaps(box, await menu.boundingBox()), '375 px: over the menu').toBe(false);
      }
      await toast.getByRole('button').click();
      await expect(toast).toHaveCount(0);
    }
  });

  test('at 1280 px the three product cards are as tall as each other, the PK1 one with its link below', async ({
    page,
  }) => {
    await signUp(page, uniqueEmail('cards'));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/dashboard/purchase');
    const cards = page.getByRole('region', { name: '1. Proxy type' }).getByRole('button');
    await expect(cards).toHaveCount(3);
    const heights = await cards.evaluateAll((buttons) =>
      buttons.map((button) => button.getBoundingClientRect().height),
    );
    expect(new Set(heights).size, `heights ${heights.join(', ')}`).toBe(1);
    const link = page.getByRole('link', { name: 'Open a ticket in our community' });
    const pk1 = await cards.filter({ hasText: 'PK1 ISP Proxies' }).boundingBox();
    const linkBox = await link.boundingBox();
    expect(linkBox && pk1 && linkBox.y >= pk1.y + pk1.height).toBe(true);
  });

  test('the custom amount field and the Order Summary always say the same amount', async ({ page }) => {
    await signUp(page, uniqueEmail('amount'));
    await page.goto('/dashboard/purchase');
    await page.getByRole('button', { name: /Residential Proxies/ }).click();
    await page
      .getByRole('group', { name: 'Bundles' })
      .getByRole('button', { name: /^Custom/ })
      .click();
    const amount = page.getByRole('textbox', { name: /Custom amount/ });
    const summaryQuantity = page
      .getByRole('region', { name: 'Order Summary' })
      .getByText('Quantity', { exact: true })
      .locator('xpath=following-sibling::*[1]');
    const total = page.getByTestId('order-total');
    await expect(amount).toHaveValue('1');
    await expect(summaryQuantity).toHaveText('1 GB');
    // A 0 typed by a person is no amount on either side (the summary used 1 beside it); left, it is 1 on both.
    await amount.clear();
    await amount.pressSequentially('0');
    await expect(amount).toHaveValue('0');
    await expect(summaryQuantity).toHaveText('Not selected');
    await expect(total).toHaveText('—');
    await amount.blur();
    await expect(amount).toHaveValue('1');
    await expect(summaryQuantity).toHaveText('1 GB');
    await expect(total).toHaveText('$5');
    // Left empty, it becomes 1 on both sides too.
    await amount.clear();
    await expect(summaryQuantity).toHaveText('Not selected');
    await amount.blur();
    await expect(amount).toHaveValue('1');
    await expect(summaryQuantity).toHaveText('1 GB');
    await amount.fill('12');
    await expect(amount).toHaveValue('12');
    await expect(summaryQuantity).toHaveText('12 GB');
    await expect(total).toHaveText('$60');
  });

  test('PK1 and residential data bought through the sandbox both appear in Order History', async ({ page }) => {
    await signUp(page, uniqueEmail('both'));
    await buyThroughSandbox(page, /PK1 ISP Proxies/, /^25 IPs/);
    await expect(page).toHaveURL(/tab=pk1_isp_proxies$/);
    await buyThroughSandbox(page, /Residential Proxies/, /^2 GB/);
    await expect(page).toHaveURL(/tab=residential_proxies$/);

    await page.goto('/dashboard/order-history');
    await expect(page.getByRole('row').filter({ hasText: 'PK1 ISP Proxies' })).toContainText('$62.50');
    await expect(page.getByRole('row').filter({ hasText: 'Residential Proxies' })).toContainText('$10.00');

    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByTestId('order-history-card').filter({ visible: true })).toHaveCount(2);
    await expect(page.getByRole('row')).toHaveCount(0);
  });
});

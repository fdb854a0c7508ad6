import { expect, type Page, test } from '@playwright/test';
import { buyThroughSandbox, linkFromMail, signUp, uniqueEmail } from './support/helpers.ts';
import { E2E } from './support/ports.ts';

async function moveClock(admin: Page, days: number) {
  await admin.goto('/dashboard/admin');
  const input = admin.getByLabel('Move the clock to (UTC)');
  const current = await input.inputValue();
  const base = Math.max(Date.parse(`${current}:00Z`) - 31 * 86_400_000, Date.now());
  const target = new Date(base + days * 86_400_000).toISOString().slice(0, 16);
  await input.fill(target);
  await admin.getByRole('button', { name: 'Move clock and run jobs' }).click();
  await expect(admin.getByText(/^Clock at /)).toBeVisible();
}

test('an operator moves the sandbox clock: a renewal, a failed payment, then an expiry with burnt IPs', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const customer = await browser.newPage();
  const email = uniqueEmail('renewing');
  await signUp(customer, email);
  await buyThroughSandbox(customer, /Elite ISP Proxies/, /^5 IPs/);
  await expect(customer).toHaveURL(/tab=isp_proxies$/);
  // The receipt reaches the customer's mailbox through SMTP.
  expect(await linkFromMail(email, /Thank you for your payment/)).toContain('/sandbox/invoices/');

  const admin = await browser.newPage();
  await signUp(admin, E2E.clockAdminEmail);
  await moveClock(admin, 31);

  await customer.goto('/dashboard/order-history');
  await expect(customer.getByRole('row').filter({ hasText: 'Elite ISP Proxies' })).toHaveCount(2);
  expect(await linkFromMail(email, /Your subscription was renewed/)).toContain('/sandbox/invoices/');

  // The customer's card starts to decline: the next renewal fails and the badge shows.
  await customer.goto('/dashboard/proxies');
  await customer.getByRole('link', { name: 'Payment method' }).click();
  await customer.getByRole('button', { name: 'Use a declining card' }).click();
  await expect(customer.getByText('Declining test card')).toBeVisible();
  await moveClock(admin, 62);
  await customer.goto('/dashboard/proxies');
  await expect(customer.getByText('Payment Failed (Contact Support)')).toBeVisible();
  expect(await linkFromMail(email, /We could not renew your subscription/)).toContain('/sandbox/billing/');

  // No new card within the 3-day grace period: the order expires and its IPs are released.
  await moveClock(admin, 66);
  await customer.goto('/dashboard/proxies');
  await expect(customer.getByText('Expired')).toBeVisible();
  await expect(customer.getByTestId('order-card')).toContainText('0 proxies');
  expect(await linkFromMail(email, /Your order has expired/)).toContain('/dashboard/purchase');
});

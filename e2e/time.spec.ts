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
  const [due] = (await (await customer.request.get('/api/orders')).json()) as {
    proxies: string[];
    expiration_time: string;
  }[];
  const held = due?.proxies ?? [];
  expect(held).toHaveLength(5);
  await moveClock(admin, 66);
  await customer.goto('/dashboard/proxies');
  await expect(customer.getByText('Expired')).toBeVisible();
  await expect(customer.getByTestId('order-card')).toContainText('0 proxies');
  // It ended with the period that was never paid: that business date, about two months ahead of the real time, not
  // the real time the job ran at.
  const [ended] = (await (await customer.request.get('/api/orders')).json()) as { expiration_time: string }[];
  expect(ended?.expiration_time).toBe(due?.expiration_time);
  expect(Date.parse(ended?.expiration_time ?? '')).toBeGreaterThan(Date.now() + 50 * 86_400_000);
  const endedOn = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(ended?.expiration_time ?? ''),
  );
  await expect(customer.getByTestId('order-card')).toContainText(`Ended ${endedOn}`);
  expect(await linkFromMail(email, /Your order has expired/)).toContain('/dashboard/purchase');

  // The operator finds the burnt IPs on the console and swaps their subnet: its IPs are clean and for sale again.
  await admin.goto('/dashboard/admin');
  const card = admin.locator('.mantine-Card-root').filter({ hasText: 'Elite ISP Proxy Inventory' });
  const burntList = card.getByLabel(/^Burnt IPs/);
  for (const endpoint of held) {
    const ip = (endpoint.split(':')[0] ?? '').replaceAll('.', '\\.');
    await expect(burntList).toHaveValue(new RegExp(`(^|\\n)${ip}(\\n|$)`));
  }
  const subnet = `${held[0]?.split('.').slice(0, 3).join('.')}.0/24`;
  const subnets = (await (await admin.request.get('/api/admin/ips/isp/subnets?ips=false')).json()) as {
    subnets: { subnet: string; totalIps: number; burntIps: number }[];
  };
  const target = subnets.subnets.find((entry) => entry.subnet === subnet);
  // The order's IPs are taken in no particular order from the stock, so they can lie in more than one subnet.
  const heldInSubnet = held.filter((endpoint) => endpoint.startsWith(`${subnet.split('.0/')[0]}.`)).length;
  expect(target?.burntIps).toBeGreaterThanOrEqual(heldInSubnet);
  await admin.goto('/dashboard/admin?tab=pk1_inventory_list');
  await admin.getByText('Elite ISP', { exact: true }).click();
  await admin.getByRole('button', { name: new RegExp(`^${subnet.replaceAll('.', '\\.')}`) }).click();
  await admin.getByRole('button', { name: 'Swap IPs' }).first().click();
  const fresh = Array.from(
    { length: target?.totalIps ?? 0 },
    (_, i) => `198.19.${Math.floor(i / 250)}.${(i % 250) + 1}:7000:fresh${i}:pw${i}`,
  );
  await admin.getByRole('dialog').getByLabel('New endpoints').fill(fresh.join('\n'));
  await admin.getByRole('dialog').getByRole('button', { name: 'Swap IPs' }).click();
  await expect(admin.getByText('IPs Swapped Successfully', { exact: true })).toBeVisible();
  const after = (await (await admin.request.get('/api/admin/ips/isp/subnets?ips=false')).json()) as typeof subnets;
  expect(after.subnets.find((entry) => entry.subnet === subnet)).toBeUndefined();
  expect(
    after.subnets.filter((entry) => entry.subnet.startsWith('198.19.')).every((entry) => entry.burntIps === 0),
  ).toBe(true);
});

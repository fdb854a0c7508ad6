import { expect, type Page, test } from '@playwright/test';
import { pageLive, signIn, signUp, uniqueEmail } from './support/helpers.ts';
import { E2E } from './support/ports.ts';

// One administrator works through the console; the tests run in order on the shared app.
test.describe.configure({ mode: 'serial' });

/** Four Elite ISP endpoints in the benchmarking range 198.18.0.0/15, apart from every other test's IPs. */
const upload = [
  '198.18.5.10:8001:con1:pw1',
  '198.18.5.11:8001:con2:pw2',
  '198.18.5.12:8001:con3:pw3',
  '198.18.5.13:8001:con4:pw4',
];
const swapped = [
  '198.18.5.20:9001:new1:pw1',
  '198.18.5.21:9001:new2:pw2',
  '198.18.5.22:9001:new3:pw3',
  '198.18.5.23:9001:new4:pw4',
];

let signedUp = false;
async function asAdmin(page: Page) {
  if (!signedUp) {
    await signUp(page, E2E.consoleAdminEmail);
    signedUp = true;
  } else {
    await signIn(page, E2E.consoleAdminEmail);
    await expect(page).toHaveURL(/\/dashboard\/overview$/);
  }
}

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('switches a product off and on from the Purchase Toggle card', async ({ page }) => {
  await asAdmin(page);
  await page.goto('/dashboard/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Inventory & Features' })).toHaveAttribute('aria-selected', 'true');

  const pk1 = page.getByRole('switch', { name: 'PK1 ISP Proxies' });
  await expect(pk1).toBeChecked();
  await pageLive(page);
  await pk1.click({ force: true });
  await expect(pk1).not.toBeChecked();
  const features = async () =>
    (await (await page.request.get('/api/features')).json()) as { featureName: string; isEnabled: boolean }[];
  await expect
    .poll(async () => (await features()).find((f) => f.featureName === 'pk1_isp_proxies')?.isEnabled)
    .toBe(false);
  await pk1.click({ force: true });
  await expect(pk1).toBeChecked();
  await expect
    .poll(async () => (await features()).find((f) => f.featureName === 'pk1_isp_proxies')?.isEnabled)
    .toBe(true);
});

test('uploads Elite ISP IPs with the spec messages for bad input', async ({ page }) => {
  await asAdmin(page);
  await page.goto('/dashboard/admin?tab=inventory');
  const card = page.locator('.mantine-Card-root').filter({ hasText: 'Elite ISP Proxy Inventory' });
  const area = card.getByLabel('Upload IPs');
  const totalIps = async () =>
    ((await (await page.request.get('/api/admin/stocks/isp')).json()) as { totalIps: number }).totalIps;
  const before = await totalIps();

  await card.getByRole('button', { name: 'Upload IPs' }).click();
  await expect(card.getByText('Please enter at least one IP')).toBeVisible();
  await area.fill(`${upload[0]}\nnot-an-endpoint\n198.18.5.99:70000:u:p`);
  await card.getByRole('button', { name: 'Upload IPs' }).click();
  await expect(
    card.getByText('Invalid format on lines: 2, 3. Expected format: IP:PORT:USERNAME:PASSWORD'),
  ).toBeVisible();

  await area.fill(upload.join('\n'));
  await card.getByRole('button', { name: 'Upload IPs' }).click();
  await expect(page.getByText('4 IPs added.')).toBeVisible();
  await expect(area).toHaveValue('');
  expect(await totalIps()).toBe(before + 4);
  await expect(card.getByText((before + 4).toLocaleString('en-US'), { exact: true }).first()).toBeVisible();
});

test('swaps a subnet from the PK1 IP Inventory tab and downloads its endpoints', async ({ page }) => {
  await asAdmin(page);
  await page.goto('/dashboard/admin?tab=pk1_inventory_list');
  await expect(page.getByRole('tab', { name: 'PK1 IP Inventory' })).toHaveAttribute('aria-selected', 'true');
  await page.getByText('Elite ISP', { exact: true }).click();
  await page.getByRole('button', { name: /^198\.18\.5\.0\/24/ }).click();
  await expect(page.getByRole('cell', { name: upload[0] })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Endpoints' }).click();
  expect((await download).suggestedFilename()).toBe('198.18.5.0_24_endpoints.txt');

  await page.getByRole('button', { name: 'Swap IPs' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Swap IPs of 198.18.5.0/24' });
  const endpoints = dialog.getByLabel('New endpoints');
  await dialog.getByRole('button', { name: 'Swap IPs' }).click();
  await expect(dialog.getByText('Please enter at least one endpoint')).toBeVisible();
  await endpoints.fill(swapped.slice(0, 3).join('\n'));
  await dialog.getByRole('button', { name: 'Swap IPs' }).click();
  await expect(dialog.getByText("Number of endpoints (3) must match the subnet's IP count (4)")).toBeVisible();
  await endpoints.fill(swapped.join('\n'));
  await dialog.getByRole('button', { name: 'Swap IPs' }).click();
  await expect(page.getByText('IPs Swapped Successfully', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: /^198\.18\.5\.0\/24/ }).click();
  await page.getByRole('button', { name: /^198\.18\.5\.0\/24/ }).click();
  await expect(page.getByRole('cell', { name: swapped[0] })).toBeVisible();
  await expect(page.getByRole('cell', { name: upload[0] })).toHaveCount(0);
});

test('a custom PK1 order: found by e-mail, paid by the customer through its link, fulfilled by hand', async ({
  page,
  browser,
}) => {
  // Two people's whole flow (sign-up, search, link, payment, fulfilment): beside the accessibility walks running at
  // the same time it came within a second of the default 30 s.
  test.slow();
  const customer = await browser.newPage();
  const email = uniqueEmail('custom');
  await signUp(customer, email);

  await asAdmin(page);
  await page.goto('/dashboard/admin?tab=custom');
  await expect(page.getByRole('tab', { name: 'Custom Ordering' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('Please enter an email address')).toBeVisible();
  await page.getByLabel('Customer e-mail').fill('nobody@e2e.test');
  await page.getByLabel('Customer e-mail').press('Enter');
  await expect(page.getByText('User Not Found')).toBeVisible();
  await page.getByLabel('Customer e-mail').fill(`  ${email.toUpperCase()} `);
  await page.getByLabel('Customer e-mail').press('Enter');
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await expect(page.getByText('No custom orders for this customer yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Create Custom Order' }).click();
  await page.getByLabel('Quantity (IPs)').fill('3');
  await page.getByRole('button', { name: 'Create payment link' }).click();
  const link = (await page.getByText(/\/sandbox\/checkout\/cs_sandbox_/).textContent()) ?? '';
  await expect(page.getByRole('cell', { name: 'awaiting payment' })).toBeVisible();

  await customer.goto(link);
  await customer.getByRole('button', { name: 'Pay with test card' }).click();
  await expect(customer).toHaveURL(/tab=pk1_isp_proxies$/);
  await expect(customer.getByTestId('processing-order')).toBeVisible();

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('cell', { name: 'paid', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Fulfill', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Fulfill custom order' });
  const lines = ['198.18.9.1:7100:cust1:pw1', '198.18.9.2:7100:cust2:pw2', '198.18.9.3:7100'];
  await dialog.getByLabel('Proxies').fill(lines.slice(0, 2).join('\n'));
  await dialog.getByRole('button', { name: 'Fulfill' }).click();
  await expect(
    dialog.getByText('Quantity Mismatch: Expected exactly 3 proxies but received 2.', { exact: false }),
  ).toBeVisible();
  await dialog.getByLabel('Proxies').fill(lines.join('\n'));
  await dialog.getByRole('button', { name: 'Fulfill' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('cell', { name: 'fulfilled' })).toBeVisible();
  // At 375 px every badge shows its whole word ("FU…" and "UNPA…" were cut); the table scrolls sideways instead.
  // A second, unpaid order puts the longest words in the table.
  await page.getByLabel('Quantity (IPs)').fill('2');
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await expect(page.getByRole('cell', { name: 'awaiting payment' })).toBeVisible();
  const wide = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 800 });
  const cutBadges = () =>
    page.locator('.mantine-Badge-root').evaluateAll((badges) =>
      badges
        .filter((badge) => {
          const label = badge.querySelector('.mantine-Badge-label') ?? badge;
          return label.scrollWidth > label.clientWidth || badge.scrollWidth > badge.clientWidth;
        })
        .map((badge) => badge.textContent),
    );
  await expect(page.getByRole('cell', { name: 'fulfilled' })).toBeVisible();
  expect(await cutBadges()).toEqual([]);
  if (wide) await page.setViewportSize(wide);

  await expect(customer.getByTestId('processing-order')).toHaveCount(0, { timeout: 12_000 });
  await expect(customer.getByTestId('order-card')).toContainText('3 proxies');
  const [order] = (await (await customer.request.get('/api/orders')).json()) as { proxies: string[] }[];
  expect([...(order?.proxies ?? [])].sort()).toEqual([...lines].sort());
});

test('creates a coupon, sees it redeemed by a paid checkout, pauses and deletes it', async ({ page, browser }) => {
  await asAdmin(page);
  await page.goto('/dashboard/admin?tab=active_coupons');
  await page.getByRole('button', { name: 'Add Coupon' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Coupon' });
  await dialog.getByRole('button', { name: 'Create Coupon' }).click();
  await expect(dialog.getByText('Coupon code is required')).toBeVisible();
  await expect(dialog.getByText('Coupon name must be at least 3 characters')).toBeVisible();
  await expect(dialog.getByText('Must select at least one product')).toBeVisible();
  await dialog.getByLabel('Coupon code').fill('e2espring');
  await dialog.getByLabel('Name').fill('E2E spring');
  await dialog.getByRole('checkbox', { name: 'Elite ISP Proxies' }).check();
  await dialog.getByRole('combobox', { name: 'Duration' }).click();
  await page.getByRole('option', { name: 'Repeating' }).click();
  await dialog.getByRole('button', { name: 'Create Coupon' }).click();
  await expect(dialog.getByText('Duration in months is required for repeating coupons')).toBeVisible();
  await expect(dialog.getByText('Percent off must be greater than 0')).toBeVisible();
  await dialog.getByLabel('Duration in months').fill('2');
  await dialog.getByRole('textbox', { name: 'Percent off' }).fill('15');
  await dialog.getByRole('button', { name: 'Create Coupon' }).click();
  await expect(dialog.getByText('Coupon created!')).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: 'E2E spring' });
  await expect(row).toContainText('15% off');

  // A customer pays with the code: it shows on the Coupon Redemptions tab.
  const customer = await browser.newPage();
  const email = uniqueEmail('coupon');
  await signUp(customer, email);
  const started = await customer.request.post('/api/checkout', {
    data: { productId: 'isp_proxies', quantity: 5, coupon: 'E2ESPRING' },
    headers: { origin: E2E.appUrl },
  });
  await customer.goto(((await started.json()) as { checkoutUrl: string }).checkoutUrl);
  await customer.getByRole('button', { name: 'Pay with test card' }).click();
  await expect(customer).toHaveURL(/tab=isp_proxies$/);
  await page.goto('/dashboard/admin?tab=coupon_redemptions');
  const used = page.getByRole('row').filter({ hasText: 'E2ESPRING' });
  await expect(used).toContainText('1');
  await page.getByRole('button', { name: 'Show who used E2ESPRING' }).click();
  await expect(page.getByRole('cell', { name: email })).toBeVisible();

  await page.goto('/dashboard/admin?tab=active_coupons');
  await page.getByRole('button', { name: 'Show the promo codes of E2E spring' }).click();
  await expect(page.getByText('Redeemed 1 / Unlimited')).toBeVisible();
  const active = page.getByRole('switch', { name: 'Active' });
  await pageLive(page);
  await active.click({ force: true });
  await expect(page.getByRole('switch', { name: 'Inactive' })).not.toBeChecked();
  await page.getByRole('button', { name: 'Delete E2E spring' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete coupon?' });
  await expect(confirm).toContainText('Its redemption stays listed under Coupon Redemptions');
  await confirm.getByRole('button', { name: 'Delete Coupon' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'E2E spring' })).toHaveCount(0);

  // Its sales history stays: the code, its discount and who used it.
  await page.goto('/dashboard/admin?tab=coupon_redemptions');
  const kept = page.getByRole('row').filter({ hasText: 'E2ESPRING' });
  await expect(kept).toContainText('15% off');
  await expect(kept).toContainText('Deleted');
  await page.getByRole('button', { name: 'Show who used E2ESPRING (deleted coupon)' }).click();
  await expect(page.getByRole('cell', { name: email })).toBeVisible();
});

test('keeps an audit log of the changes, and the tabs follow ?tab= with its aliases', async ({ page }) => {
  await asAdmin(page);
  await page.goto('/dashboard/admin?tab=audit_log');
  const rows = page.getByRole('row').filter({ hasText: E2E.consoleAdminEmail });
  await expect(rows.filter({ hasText: 'subnet.swap' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'ips.upload' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'feature.toggle' })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'custom.fulfil' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'coupon.delete' })).toHaveCount(1);

  await page.goto('/dashboard/admin?tab=coupons');
  await expect(page.getByRole('tab', { name: 'Active Coupons' })).toHaveAttribute('aria-selected', 'true');
  await page.goto('/dashboard/admin?tab=nonsense');
  await expect(page.getByRole('tab', { name: 'Inventory & Features' })).toHaveAttribute('aria-selected', 'true');
});

test('works at 375 px without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await asAdmin(page);
  for (const tab of [
    'inventory',
    'pk1_inventory_list',
    'custom_ordering',
    'active_coupons',
    'coupon_redemptions',
    'audit_log',
  ]) {
    await page.goto(`/dashboard/admin?tab=${tab}`);
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByRole('tab', { selected: true })).toBeInViewport();
    expect(await noSidewaysScroll(page), tab).toBeLessThanOrEqual(0);
  }
});

test('on a phone, a page drawn at a later tab shows that tab before any script runs', async ({ page, browser }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await asAdmin(page);
  await page.goto('/dashboard/admin');
  // The same session (and its time-zone cookie), in a browser that runs no script: only the server's HTML and CSS.
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 375, height: 800 },
    storageState: await page.context().storageState(),
  });
  try {
    const drawn = await noScript.newPage();
    await drawn.goto('/dashboard/admin?tab=audit_log');
    // The drawn page stays inert (out of the accessibility tree) until it hydrates, which it never does here.
    const selected = drawn.locator('[role="tab"][aria-selected="true"]');
    await expect(selected).toHaveText('Audit Log');
    await expect(selected).toBeInViewport({ ratio: 1 });
    await expect(drawn.locator('[role="tab"]').first()).not.toBeInViewport();
  } finally {
    await noScript.close();
  }
});

test('the usage chart arrives drawn with the page, and pointing at a day shows its figure', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await asAdmin(page);
  await page.goto('/dashboard/admin?tab=inventory');
  // The 30 bars, drawn by the server with the console; their figures as a table behind 'Figures per day', opened by
  // the keyboard as a screen reader's user or anyone would.
  const bars = page.locator('[class*="_slot_"]');
  await expect(bars).toHaveCount(30);
  await pageLive(page);
  const table = page.getByRole('table', { name: 'Carried by the gateway, per day over the last 30 days' });
  await expect(table).toBeHidden();
  await page.getByText('Figures per day', { exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(table.getByRole('row')).toHaveCount(31);
  await expect(table).toBeVisible();
  // No chart library of its own: the page's scripts are those of the console.
  expect(scripts.filter((url) => /chart/i.test(url))).toEqual([]);
  const today = await table.getByRole('row').last().getByRole('cell').first().textContent();
  await bars.last().hover();
  await expect(page.getByText(new RegExp(`^${today}: [0-9.,]+ (GB|MB)$`))).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(page.getByText(new RegExp(`^${today}: `))).toHaveCount(0);
});

test('pages through the IP inventory and finds a subnet by its start, an IP or a state', async ({ page }) => {
  await asAdmin(page);
  // Sixty more Elite ISP subnets, one IP each (198.18.100.0/24 to 198.18.159.0/24): more than a page.
  const lines = Array.from({ length: 60 }, (_, n) => `198.18.${100 + n}.1:8002:page${n}:pw${n}`);
  const uploaded = await page.request.post('/api/admin/stocks/isp/upload', {
    data: { ips: lines },
    headers: { origin: E2E.appUrl },
  });
  expect(uploaded.status()).toBe(200);
  await page.goto('/dashboard/admin?tab=pk1_inventory_list');
  await page.getByText('Elite ISP', { exact: true }).click();
  const cards = page.locator('button[aria-controls^="subnet-isp-"]');
  const filter = async (fields: { search?: string; state?: string }) => {
    await page.getByLabel('Subnet or IP').fill(fields.search ?? '');
    if (fields.state) {
      await page.getByRole('combobox', { name: 'State' }).click();
      await page.getByRole('option', { name: fields.state }).click();
    }
    await page.getByRole('button', { name: 'Filter' }).click();
  };

  await filter({ search: '198.18.1' });
  await expect(page.getByText('Page 1, more after it').first()).toBeVisible();
  await expect(cards).toHaveCount(50);
  await expect(page.getByRole('button', { name: /^198\.18\.100\.0\/24/ })).toBeVisible();
  await page.getByRole('button', { name: 'Next subnets' }).first().click();
  await expect(page.getByText('Page 2', { exact: false }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^198\.18\.159\.0\/24/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^198\.18\.100\.0\/24/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Previous subnets' }).first().click();
  await expect(page.getByRole('button', { name: /^198\.18\.100\.0\/24/ })).toBeVisible();

  await filter({ search: '198.18.142.1' });
  await expect(cards).toHaveCount(1);
  await page.getByRole('button', { name: /^198\.18\.142\.0\/24/ }).click();
  await expect(page.getByRole('cell', { name: lines[42] })).toBeVisible();

  await filter({ search: '198.18.142', state: 'Burnt' });
  await expect(page.getByText('No subnets match these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(cards.first()).toBeVisible();
});

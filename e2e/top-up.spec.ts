import { expect, type Page, test } from '@playwright/test';
import { paths, pathTo, TOP_UP_FAILURES_MAX, TOP_UP_RETRY_MINUTES, topUpMessages } from '@storefront/contract';
import { Audit, showView, VIEWS } from './support/axe.ts';
import { curlThroughGateway } from './support/gateway.ts';
import { buyThroughSandbox, pageLive, signUp, uniqueEmail } from './support/helpers.ts';
import { E2E } from './support/ports.ts';

/** The subjects of the e-mails sent to `to` so far. */
async function subjectsTo(to: string): Promise<string[]> {
  const response = await fetch(`http://127.0.0.1:${E2E.controlPort}/mails?to=${encodeURIComponent(to)}`);
  const mails = (await response.json()) as { raw: string }[];
  return mails.map((mail) => /^Subject: (.*)$/m.exec(mail.raw)?.[1]?.trim() ?? '');
}

/** Where the sandbox's clock is, as far as this file has seen: it runs ahead of the real time once moved. */
let clockAt = 0;

/**
 * Moves the sandbox's clock `minutes` past where it is, which runs the periodic job (top-ups among it) at that time. The
 * clock only moves forward and other tests may have moved it far ahead: its refusal says where it is.
 */
async function moveClockBy(admin: Page, minutes: number) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = new Date(Math.max(clockAt, Date.now()) + minutes * 60_000).toISOString();
    const answer = await admin.request.post('/api/admin/sandbox/clock', {
      data: { now },
      headers: { origin: E2E.appUrl },
    });
    const body = (await answer.json()) as { now?: string; message?: string };
    if (answer.ok()) {
      clockAt = Date.parse(body.now ?? now);
      return;
    }
    const at = /already at (\S+?)\.?$/.exec(body.message ?? '')?.[1];
    expect(at, body.message).toBeDefined();
    clockAt = Date.parse(at ?? '');
  }
  throw new Error('The sandbox clock did not move.');
}

const residentialTab = `${paths.proxies}?tab=residential_proxies`;

/** axe on the page as it is, in the four views, once it is live (a page hydrating is inert, out of axe's sight). */
async function check(page: Page, audit: Audit, label: string) {
  await pageLive(page);
  await audit.check(label, VIEWS);
  await showView(page, VIEWS[0]);
}

/**
 * Saves a test card through the sandbox's card page, as a customer does from the tab; ends back on the tab. Answers the
 * card page's address.
 */
async function saveCard(
  page: Page,
  card: 'Test card that pays' | 'Card that is declined',
  audit?: Audit,
): Promise<string> {
  const topUp = page.getByRole('region', { name: 'Automatic top-up' });
  await pageLive(page);
  await topUp.getByRole('button', { name: /^(Save a card|Replace card)$/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/card\//);
  await expect(page.getByRole('heading', { name: 'Save a card for automatic top-up (sandbox)' })).toBeVisible();
  const address = page.url();
  if (audit) await check(page, audit, 'the sandbox card page');
  await page.getByText(card, { exact: true }).click();
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page).toHaveURL(/\/dashboard\/proxies\?tab=residential_proxies$/);
  await expect(page.getByText(topUpMessages.cardSaved).last()).toBeVisible();
  return address;
}

/** Sets the settings and saves them: the threshold, the amount, and top-up on. */
async function turnOn(page: Page, { thresholdGb, amountGb }: { thresholdGb: number; amountGb: number }) {
  const topUp = page.getByRole('region', { name: 'Automatic top-up' });
  await topUp.getByRole('textbox', { name: 'When data left falls under (GB)' }).fill(String(thresholdGb));
  await topUp.getByRole('textbox', { name: 'Buy (GB)' }).fill(String(amountGb));
  const toggle = topUp.getByRole('switch', { name: 'Automatic top-up' });
  if (!(await toggle.isChecked())) await toggle.click({ force: true });
  await expect(toggle).toBeChecked();
  await topUp.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(topUpMessages.saved).last()).toBeVisible();
  await expect(topUp.getByText('On', { exact: true })).toBeVisible();
}

// Each test moves the shared sandbox clock, which runs every customer's top-ups: one at a time, so that a test's
// customer sees only the runs of its own moves.
test.describe.configure({ mode: 'serial' });

let admin: Page;
test.beforeAll(async ({ browser }) => {
  admin = await browser.newPage();
  await signUp(admin, E2E.topUpAdminEmail);
});
test.afterAll(async () => {
  await admin.close();
});

test.describe('automatic top-up', () => {
  test('the test card tops up under the threshold: the data, the paid entry, the order', async ({ page }) => {
    // A purchase, the card page, a move of the clock, and axe on five states in four views each.
    test.setTimeout(180_000);
    const email = uniqueEmail('top-up');
    await signUp(page, email);
    await buyThroughSandbox(page, /Residential Proxies/, /^2 GB/);
    await expect(page.getByText('0.000 GB of 2.000 GB')).toBeVisible();
    const topUp = page.getByRole('region', { name: 'Automatic top-up' });
    await expect(topUp.getByText('No card saved')).toBeVisible();
    await expect(topUp.getByText('No top-ups yet.')).toBeVisible();

    // No card: the switch says so at once.
    await pageLive(page);
    const toggle = topUp.getByRole('switch', { name: 'Automatic top-up' });
    await toggle.click({ force: true });
    await expect(topUp.getByText(topUpMessages.needCard)).toBeVisible();
    const audit = new Audit(page);
    await check(page, audit, 'the Automatic top-up card, no card');
    await toggle.click({ force: true });

    // A card page that is nobody's says so.
    await page.goto(pathTo(paths.sandboxCardSetup, { id: `seti_sandbox_${'x'.repeat(24)}` }));
    await expect(page.getByText(topUpMessages.noSetupPage)).toBeVisible();
    await page.goto(residentialTab);

    // The test card, then top-up on at 2 GB: with 2 GB left nothing is bought, however often the job runs.
    const cardPage = await saveCard(page, 'Test card that pays', audit);
    await expect(topUp.getByTestId('top-up-card-label')).toHaveText(/^Card: /);
    await turnOn(page, { thresholdGb: 2, amountGb: 3 });
    await check(page, audit, 'the Automatic top-up card, on with a card');
    // The card page has done its work: opened again, it says so.
    await page.goto(cardPage);
    await expect(page.getByText(topUpMessages.setupUsed)).toBeVisible();
    await check(page, audit, 'the sandbox card page, used');
    await page.goto(residentialTab);
    await moveClockBy(admin, 5);
    await page.reload();
    await expect(topUp.getByText('No top-ups yet.')).toBeVisible();

    // Data through the gateway takes what is left under the threshold: the next run of the job buys 3 GB.
    const username = await page.getByRole('textbox', { name: 'Username' }).inputValue();
    const password = await page.getByLabel('Password', { exact: true }).inputValue();
    expect(await curlThroughGateway(`http://127.0.0.1:${E2E.gatewayPort}`, { username, password })).toContain('<html');
    // The gateway's batch reaches the account within a second or so: the job must see it.
    await expect
      .poll(
        async () =>
          ((await (await page.request.get('/api/orders/usage')).json()) as { usedInKb: number }[])[0]?.usedInKb,
      )
      .toBeGreaterThan(0);
    await moveClockBy(admin, 5);
    await expect(async () => {
      await page.reload();
      await expect(topUp.getByTestId('top-up-entry').first()).toContainText('Paid', { timeout: 3000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByText(/ GB of 5\.000 GB$/)).toBeVisible();
    // The receipt, as for any purchase: the first purchase's and the top-up's.
    await expect
      .poll(async () =>
        (await subjectsTo(email)).filter((subject) => /^Receipt: .+ for Residential Proxies$/.test(subject)),
      )
      .toHaveLength(2);
    const paid = topUp.getByTestId('top-up-entry').first();
    await expect(paid).toContainText('3 GB');
    await check(page, audit, 'the Automatic top-up card, a paid top-up');
    const orderNumber = /#([0-9A-F]{8})/.exec((await paid.textContent()) ?? '')?.[1];
    expect(orderNumber).toBeDefined();
    await paid.getByRole('link', { name: /in Order History$/ }).click();
    await expect(page).toHaveURL(/\/dashboard\/order-history$/);
    await expect(page.getByRole('row').filter({ hasText: `#${orderNumber}` })).toContainText('Residential Proxies');
    expect(audit.findings).toEqual([]);
  });

  test('a declined card fails three times, an hour apart, and top-up switches itself off', async ({ page }) => {
    test.setTimeout(180_000);
    const email = uniqueEmail('top-up-declined');
    await signUp(page, email);
    await buyThroughSandbox(page, /Residential Proxies/, /^2 GB/);
    await expect(page.getByText('0.000 GB of 2.000 GB')).toBeVisible();
    const topUp = page.getByRole('region', { name: 'Automatic top-up' });
    await saveCard(page, 'Card that is declined');
    await turnOn(page, { thresholdGb: 5, amountGb: 3 });

    // Each run more than an hour after the last failure tries again; the third failure in a row switches it off.
    for (let failure = 1; failure <= TOP_UP_FAILURES_MAX; failure++) {
      await moveClockBy(admin, TOP_UP_RETRY_MINUTES + 5);
      await expect(async () => {
        await page.reload();
        await expect(topUp.getByTestId('top-up-entry').filter({ hasText: 'Failed' })).toHaveCount(failure, {
          timeout: 3000,
        });
      }).toPass({ timeout: 30_000 });
    }
    await expect(topUp.getByRole('alert').filter({ hasText: topUpMessages.switchedOff })).toBeVisible();
    await expect(topUp.getByText('Off', { exact: true })).toBeVisible();
    await expect(topUp.getByRole('switch', { name: 'Automatic top-up' })).not.toBeChecked();
    await expect(topUp.getByTestId('top-up-entry').first()).toContainText(topUpMessages.declined);
    const audit = new Audit(page);
    await check(page, audit, 'the Automatic top-up card, switched itself off');
    // Nothing was bought; each failure was e-mailed, the last saying that top-up switched itself off.
    await expect(page.getByText('0.000 GB of 2.000 GB')).toBeVisible();
    await expect
      .poll(async () => (await subjectsTo(email)).filter((subject) => subject.includes('top-up')).sort())
      .toEqual([
        'Automatic top-up is switched off',
        'Automatic top-up of 3 GB did not go through',
        'Automatic top-up of 3 GB did not go through',
      ]);
    expect(audit.findings).toEqual([]);
  });
});

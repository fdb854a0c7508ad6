import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { paths } from '@storefront/contract';
import { Audit, VIEWS } from './support/axe.ts';
import { curlThroughGateway } from './support/gateway.ts';
import { buyThroughSandbox, signUp, uniqueEmail } from './support/helpers.ts';

async function downloaded(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), content: await readFile(await download.path(), 'utf8') };
}

/** Bytes as the page shows them: GB (1024 × 1000 KB) to 3 decimals from 1 GB, else MB. */
const shown = (bytes: number) =>
  bytes / 1024 >= 1024 * 1000
    ? `${(bytes / 1024 / 1024 / 1000).toFixed(3)} GB`
    : `${(bytes / 1024 / 1024).toFixed(3)} MB`;

/** A table's rows as the page shows them: each row's cells' text. */
const tableRows = async (page: Page, name: string) =>
  (await page.getByRole('table', { name }).getByRole('row').all()).slice(1);

test.describe('the Usage page', () => {
  test('totals, ranges, by hour or day, filters, a CSV of the same figures, axe in four views', async ({ page }) => {
    // A purchase, traffic through the gateway and its batch, then the page in several views.
    test.setTimeout(180_000);
    await signUp(page, uniqueEmail('usage'));
    await page.goto(paths.usage);
    await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
    await expect(page.getByText('No usage in this range')).toBeVisible();

    await buyThroughSandbox(page, /Residential Proxies/, /^2 GB/);
    await expect(page.getByText('0.000 GB of 2.000 GB')).toBeVisible();
    await page.getByRole('textbox', { name: 'Number of proxies' }).fill('1');
    await page.getByRole('button', { name: 'Generate' }).click();
    const line = (await page.getByRole('textbox', { name: /Generated proxies/ }).inputValue()).split('\n')[0] ?? '';
    const [host, port, user, password] = line.split(':');
    for (let request = 0; request < 2; request++) {
      const landing = await curlThroughGateway(`http://${host}:${port}`, {
        username: user ?? '',
        password: password ?? '',
      });
      expect(landing).toContain('<html');
    }

    // The gateway writes its batch every few seconds: the page shows it once there.
    await page.getByRole('navigation').getByRole('link', { name: 'Usage' }).first().click();
    await expect(page).toHaveURL(/\/dashboard\/usage/);
    const cards = page.getByTestId('usage-summary-card');
    await expect(async () => {
      await page.reload();
      await expect(cards.filter({ hasText: 'Connections' })).toContainText('2', { timeout: 5000 });
    }).toPass({ timeout: 40_000 });
    await expect(cards.filter({ hasText: 'Data left' })).toContainText(/[12]\.\d{3} GB/);
    await expect(page.getByRole('button', { name: '7 days', pressed: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'By day', pressed: true })).toBeVisible();

    // The country table's CSV says what the table says.
    const countryRows = await tableRows(page, 'By country');
    expect(countryRows.length).toBeGreaterThan(0);
    const countries = await page.getByTestId('usage-table-countries');
    const file = await downloaded(page, () =>
      countries.getByRole('button', { name: 'Download CSV: By country' }).click(),
    );
    expect(file.name).toMatch(/^usage-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}-countries\.csv$/);
    const [header, ...lines] = file.content.trim().split('\n');
    expect(header).toBe('Country,Bytes,KB,Connections');
    expect(lines).toHaveLength(countryRows.length);
    let totalBytes = 0;
    for (const [index, csvLine] of lines.entries()) {
      const [label, bytes, kb, connections] = csvLine.split(',');
      totalBytes += Number(bytes);
      expect(Number(kb)).toBeCloseTo(Number(bytes) / 1024, 3);
      await expect(countryRows[index]?.getByRole('cell') ?? page.locator('none')).toHaveText([
        label ?? '',
        shown(Number(bytes)),
        connections ?? '',
      ]);
    }
    await expect(cards.filter({ hasText: 'Data used' })).toContainText(shown(totalBytes));

    // The same for the users' and domains' tables, in short: their names and their count.
    await expect(page.getByRole('table', { name: 'By proxy user' })).toContainText('Main user');
    await expect(page.getByRole('table', { name: 'By domain' }).getByRole('row')).not.toHaveCount(1);

    const audit = new Audit(page);
    await audit.check('the Usage page with traffic', VIEWS);

    // Today, by hour then by day; the view is in the address.
    await page.getByRole('button', { name: 'Today' }).click();
    await expect(page).toHaveURL(/range=today/);
    await expect(page.getByRole('heading', { name: 'Data used by hour' })).toBeVisible();
    await page.getByText('Figures', { exact: true }).click();
    await expect(page.getByRole('table', { name: /^Data used by hour/ }).getByRole('row')).not.toHaveCount(1);
    await page.getByRole('button', { name: 'By day' }).click();
    await expect(page).toHaveURL(/by=day/);
    await expect(page.getByRole('heading', { name: 'Data used by day' })).toBeVisible();
    await expect(cards.filter({ hasText: 'Connections' })).toContainText('2');

    // Filters: the main user keeps the traffic; another country has none.
    await page.getByRole('combobox', { name: 'Proxy user' }).selectOption('main');
    await expect(page).toHaveURL(/user=main/);
    await expect(cards.filter({ hasText: 'Connections' })).toContainText('2');
    await page.getByRole('combobox', { name: 'Country' }).selectOption('JP');
    await expect(page).toHaveURL(/country=JP/);
    await expect(page.getByText('No usage in this range')).toBeVisible();
    await audit.check('the Usage page, nothing in the view', [VIEWS[0], VIEWS[3]]);

    // A custom range: too long a range is said, not asked for.
    await page.goto(`${paths.usage}?range=custom&from=2026-01-01&to=2026-06-30`);
    await expect(page.getByText('A custom range is at most 90 days.')).toBeVisible();
    await expect(page.getByLabel('From')).toHaveValue('2026-01-01');
    await audit.check('the Usage page, custom range', [VIEWS[1], VIEWS[2]]);
    expect(audit.findings).toEqual([]);
  });
});

import { expect, type Page, test } from '@playwright/test';
import { paths } from '@storefront/contract';
import { Audit, VIEWS } from './support/axe.ts';
import { statusThroughGateway } from './support/gateway.ts';
import { buyThroughSandbox, signUp, uniqueEmail } from './support/helpers.ts';
import { E2E } from './support/ports.ts';

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

/** A table's rows (without its header) as the page shows them: each row's cells' text. */
async function rowsOf(page: Page, name: string): Promise<string[][]> {
  const rows = (await page.getByRole('table', { name }).getByRole('row').all()).slice(1);
  return Promise.all(rows.map(async (row) => row.getByRole('cell').allTextContents()));
}

async function createProxyUser(page: Page, name: string, password: string, capGb: string) {
  const card = page.getByRole('region', { name: 'Proxy Users' });
  await card.getByRole('button', { name: 'Create Proxy User' }).click();
  const create = dialog(page, 'Create a proxy user');
  await create.getByRole('textbox', { name: 'Name' }).fill(name);
  await create.getByText('Choose one', { exact: true }).click();
  await create.getByLabel('Chosen password').fill(password);
  await create.getByText('Total', { exact: true }).click();
  await create.getByRole('textbox', { name: 'Cap in GB' }).fill(capGb);
  await create.getByRole('button', { name: 'Create Proxy User' }).click();
  await dialog(page, `Password of ${name}`).getByRole('button', { name: 'Done' }).click();
}

async function mailsTo(to: string): Promise<string[]> {
  const response = await fetch(`http://127.0.0.1:${E2E.controlPort}/mails?to=${encodeURIComponent(to)}`);
  return ((await response.json()) as { raw: string }[]).map((mail) => mail.raw);
}

test.describe('a team on one account', () => {
  test('two proxy users carry data over HTTP and SOCKS 5, one is cut at its cap and e-mailed, the Usage page tells them apart', async ({
    page,
  }) => {
    // Traffic through the gateway, its batches, and the periodic job's e-mail (every minute): a long test.
    test.setTimeout(240_000);
    const email = uniqueEmail('team');
    await signUp(page, email);
    await buyThroughSandbox(page, /Residential Proxies/, /^2 GB/);
    await expect(page.getByText('0.000 GB of 2.000 GB')).toBeVisible();
    const account = await page.getByRole('textbox', { name: 'Username' }).inputValue();
    await createProxyUser(page, 'scraper', 'Scraper123', '0.001');
    await createProxyUser(page, 'reseller', 'Reseller123', '1');
    const gateway = `127.0.0.1:${E2E.gatewayPort}`;
    // A page of the shop's own, large enough that a few pass a cap of 0.001 GB (1,024 KB).
    const target = `${E2E.appUrl}/`;

    // The scraper over plain HTTP until the gateway refuses it: the answer that crosses its cap is cut short, then
    // 402, its allowance used up.
    const scraper = `http://${account}_scraper:Scraper123@${gateway}`;
    let carried = 0;
    let refused = '';
    for (let request = 0; request < 400 && !refused; request++) {
      const answer = await statusThroughGateway(scraper, target);
      carried += answer.bytes;
      if (answer.status !== '200' && answer.status !== '000') refused = answer.status;
    }
    expect(refused).toBe('402');
    expect(carried).toBeGreaterThan(900 * 1024);
    // The reseller over SOCKS 5 (the gateway's same port): its own allowance, untouched by the scraper's.
    const reseller = `socks5h://${account}_reseller:Reseller123@${gateway}`;
    for (let request = 0; request < 3; request++)
      expect((await statusThroughGateway(reseller, target)).status).toBe('200');
    // And still refused for the scraper, whatever the protocol.
    expect((await statusThroughGateway(`socks5h://${account}_scraper:Scraper123@${gateway}`, target)).status).toBe(
      '000',
    );

    // The job e-mails the customer that the scraper used its allowance (80 % and 100 % at once: the 100 % alone).
    await expect
      .poll(
        async () => (await mailsTo(email)).some((raw) => raw.includes('Proxy user scraper has used its allowance')),
        {
          timeout: 90_000,
        },
      )
      .toBe(true);

    // The card shows the scraper at its cap.
    await page.reload();
    const rows = page.getByRole('region', { name: 'Proxy Users' }).getByTestId('proxy-user-row');
    await expect(rows.filter({ hasText: 'scraper' })).toContainText(/0\.001 GB of 0\.001 GB used in total/);

    // The Usage page: both users, their totals, the CSV of the same figures.
    await page.goto(`${paths.usage}?range=today&by=day`);
    await expect(async () => {
      await page.reload();
      const users = await rowsOf(page, 'By proxy user');
      expect(users.map((row) => row[0])).toEqual(expect.arrayContaining(['scraper', 'reseller']));
    }).toPass({ timeout: 30_000 });
    const users = await rowsOf(page, 'By proxy user');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('usage-table-users').getByRole('button', { name: 'Download CSV: By proxy user' }).click(),
    ]);
    const { readFile } = await import('node:fs/promises');
    const [header, ...lines] = (await readFile(await download.path(), 'utf8')).trim().split('\n');
    expect(header).toBe('Proxy user,Bytes,KB,Connections');
    expect(lines.map((line) => line.split(',')[0])).toEqual(users.map((row) => row[0]));
    const bytesOf = (name: string) => Number(lines.find((line) => line.startsWith(`${name},`))?.split(',')[1] ?? 0);
    // The scraper's recorded bytes are what it was billed: its cap, within the last response that crossed it.
    expect(bytesOf('scraper')).toBeGreaterThanOrEqual(1024 * 1024 * 0.9);
    expect(bytesOf('scraper')).toBeLessThan(1024 * 1024 + 200 * 1024);
    expect(bytesOf('reseller')).toBeGreaterThan(0);
    // The countries' and domains' tables add up to the same total as the users'.
    const total = lines.reduce((sum, line) => sum + Number(line.split(',')[1]), 0);
    const cards = page.getByTestId('usage-summary-card');
    await expect(cards.filter({ hasText: 'Data used' })).toContainText(
      total / 1024 >= 1024 * 1000 ? /GB/ : `${(total / 1024 / 1024).toFixed(3)} MB`,
    );
    await expect(page.getByRole('table', { name: 'By domain' }).getByRole('row')).not.toHaveCount(1);

    // One user at a time: the filter keeps only the reseller's.
    await page.getByRole('combobox', { name: 'Proxy user' }).selectOption({ label: 'reseller' });
    await expect(page).toHaveURL(/user=/);
    await expect(cards.filter({ hasText: 'Connections' })).toContainText(/(^|\D)3(\D|$)/);

    const audit = new Audit(page);
    await audit.check('the Usage page of a team', VIEWS);
    expect(audit.findings).toEqual([]);
  });
});

import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { apiKeyMessages, ORDER_SEPARATOR } from '@storefront/contract';
import { buyThroughSandbox, signUp, uniqueEmail } from './support/helpers.ts';

test.describe('API keys and the proxy list link', () => {
  test('create a key in Settings, load the list by link as the download has it, revoke the key', async ({
    page,
    request,
  }) => {
    await signUp(page, uniqueEmail('keys'));
    await buyThroughSandbox(page, /Elite ISP Proxies/, /^5 IPs/);

    await page.goto('/dashboard/settings');
    await expect(page.getByText('No API keys yet.')).toBeVisible();
    // The count beside the card's title (the Authorised IPs card has its own '0 of 10').
    await expect(page.getByRole('heading', { name: 'API Keys' }).locator('..').getByText('0 of 10')).toBeVisible();

    // A blank name is refused with the server's words.
    await page.getByRole('button', { name: 'Create API Key' }).click();
    const createDialog = page.getByRole('dialog', { name: 'Create an API key' });
    await createDialog.getByRole('button', { name: 'Create Key' }).click();
    await expect(createDialog.getByText(apiKeyMessages.nameRequired)).toBeVisible();
    await createDialog.getByRole('textbox', { name: 'Name' }).fill('scraper');
    await createDialog.getByRole('button', { name: 'Create Key' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await expect(shown.getByText(apiKeyMessages.created)).toBeVisible();
    const key = (await shown.getByTestId('new-api-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    await expect(shown.getByText(`/api/proxy-list?key=${key}`)).toBeVisible();
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();

    // Listed by name and first characters; the key itself is nowhere on the page any more.
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row', { name: /scraper/ });
    await expect(row).toContainText(key.slice(0, 12));
    await expect(row).toContainText('Never');
    expect(await page.content()).not.toContain(key);

    // The Proxies page's link, in the format chosen there, gives what Download List downloads.
    await page.goto('/dashboard/proxies');
    await page
      .getByRole('combobox', { name: 'Proxy format for copies and downloads' })
      .selectOption('socks5://user:pass@ip:port');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download List' }).click(),
    ]);
    const downloadedLines = (await readFile(await download.path(), 'utf8'))
      .split('\n')
      .filter((line) => line !== '' && line !== ORDER_SEPARATOR);
    expect(downloadedLines).toHaveLength(5);

    await page.getByRole('button', { name: 'List Link' }).click();
    const shownLink = page.getByTestId('proxy-list-link');
    await expect(shownLink).toContainText('key=YOUR_API_KEY&product=isp_proxies&format=socks5://user:pass@ip:port');
    await expect(page.getByRole('button', { name: 'Copy Link' })).toBeVisible();
    const url = ((await shownLink.textContent()) ?? '').replace('YOUR_API_KEY', key);
    const loaded = await request.get(url);
    expect(loaded.status()).toBe(200);
    expect(loaded.headers()['content-type']).toContain('text/plain');
    expect((await loaded.text()).split('\n').filter(Boolean)).toEqual(downloadedLines);

    // The use shows in Settings; revoking stops the link at once.
    await page.goto('/dashboard/settings');
    await expect(row).not.toContainText('Never');
    await row.getByRole('button', { name: 'Revoke scraper' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await confirm.getByRole('button', { name: 'Revoke Key' }).click();
    await expect(page.getByText(apiKeyMessages.revoked)).toBeVisible();
    await expect(page.getByText('No API keys yet.')).toBeVisible();
    const refused = await request.get(url);
    expect(refused.status()).toBe(401);
    expect((await refused.json()).message).toBe(apiKeyMessages.invalidKey);
  });
});

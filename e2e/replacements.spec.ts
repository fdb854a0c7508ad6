import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { Audit, NARROW, showView, type View, WIDE } from './support/axe.ts';
import { buyThroughSandbox, signUp, uniqueEmail } from './support/helpers.ts';

// A customer replaces bad IPs of an Elite ISP order: two at 1280 px, two more at 375 px; each time the new lines are in
// the order's list and the history says when, which IP, which new one and why. axe checks the dialog at each step.

/** The order's list as text (the viewer holds every line), after showing all of it. */
async function listedLines(card: Locator): Promise<string[]> {
  const viewer = card.getByRole('region', { name: 'All proxies (text)' });
  return ((await viewer.textContent()) ?? '').split('\n').filter(Boolean);
}

/** Replaces the first two IPs offered (in the dialog's order) for `reason`; answers their addresses. */
async function replaceTwo(page: Page, card: Locator, audit: Audit, views: readonly View[], reason: string) {
  await card.getByRole('button', { name: 'Replace IPs' }).click();
  const dialog = page.getByRole('dialog', { name: /Replace IPs of order/ });
  await expect(dialog.getByText(/replacements left this billing period/)).toBeVisible();
  await audit.check('replace dialog, picking', views);
  await dialog.getByRole('combobox', { name: 'Reason' }).selectOption({ label: reason });
  const boxes = dialog.getByRole('checkbox', { disabled: false });
  const picked: string[] = [];
  for (const index of [0, 1]) {
    const box = boxes.nth(index);
    picked.push((await box.getAttribute('value')) ?? '');
    await box.check();
  }
  await expect(dialog.getByText('IPs to replace (2 of')).toBeVisible();
  await dialog.getByRole('button', { name: 'Review replacement' }).click();
  await expect(dialog.getByText(/Replacing 2 IPs uses 2 of your \d+ replacements left/)).toBeVisible();
  await audit.check('replace dialog, preview', views);
  await dialog.getByRole('button', { name: 'Replace 2 IPs' }).click();
  await expect(page.getByText('2 IPs replaced: the new lines are in your list.').last()).toBeVisible();
  await expect(dialog).toHaveCount(0);
  return picked;
}

test('replace two IPs of an order at 1280 and at 375 px: new lines in the list, and the history', async ({ page }) => {
  test.slow();
  const audit = new Audit(page);
  await signUp(page, uniqueEmail('replace'));
  await buyThroughSandbox(page, /Elite ISP Proxies/, /^50 IPs/);
  const card = page.getByTestId('order-card').first();
  await expect(card).toContainText('50 proxies');
  await card.getByRole('button', { name: 'Show proxies' }).click();
  await card.getByRole('combobox', { name: 'Per page' }).selectOption('Show all');
  await expect(card.getByText('5 of 5 replacements left this billing period', { exact: false })).toBeVisible();
  const before = await listedLines(card);
  expect(before).toHaveLength(50);

  const history = card.getByTestId('replacement-history');
  const done: string[] = [];
  for (const [views, reason] of [
    [WIDE, 'Blocked by a target'],
    [NARROW, 'Does not connect'],
  ] as const) {
    const [first] = views;
    if (first) await showView(page, first);
    const picked = await replaceTwo(page, card, audit, views, reason);
    done.push(...picked);
    // The list reloads with the new lines in place of the old ones: still 50.
    await expect(history.getByRole('listitem')).toHaveCount(done.length);
    const lines = await listedLines(card);
    expect(lines).toHaveLength(50);
    for (const address of done) expect(lines.some((line) => line.startsWith(`${address}:`))).toBe(false);
    const entries = await history.getByRole('listitem').allTextContents();
    for (const address of picked) {
      const entry = entries.find((text) => text.startsWith(address));
      expect(entry, address).toContain(reason);
      expect(entry).toContain('Replaced');
      const fresh = /→\s*replaced by\s*(\d+\.\d+\.\d+\.\d+:\d+)/.exec(entry ?? '')?.[1] ?? '';
      expect(fresh).not.toBe('');
      expect(lines.some((line) => line.startsWith(`${fresh}:`))).toBe(true);
    }
    await audit.check('order with its replacement history', views);
  }
  await expect(history.getByText('1 of 5 replacements left this billing period', { exact: false })).toBeVisible();
  // The order's download holds the new lines too.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Download', exact: true }).click(),
  ]);
  const file = (await readFile(await download.path(), 'utf8')).trim().split('\n');
  expect(file).toEqual(await listedLines(card));
  for (const address of done) expect(file.some((line) => line.startsWith(`${address}:`))).toBe(false);
  expect(audit.findings).toEqual([]);
});

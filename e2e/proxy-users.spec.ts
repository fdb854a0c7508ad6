import { expect, type Locator, type Page, test } from '@playwright/test';
import { parseResidentialLine } from '@storefront/contract';
import { Audit, VIEWS } from './support/axe.ts';
import { buyThroughSandbox, signUp, uniqueEmail } from './support/helpers.ts';

/** Opens a proxy user's actions menu and picks one. */
async function act(card: Locator, name: string, action: string) {
  await card.getByRole('button', { name: `Actions for ${name}` }).click();
  await card.page().getByRole('menuitem', { name: action }).click();
}

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

test.describe('proxy users', () => {
  test('create two with caps, rename, new password, pause, history, delete, and generate lines for one', async ({
    page,
  }) => {
    // A purchase, six dialogs each checked by axe in four views, and the generator: several times a plain flow.
    test.setTimeout(240_000);
    const email = uniqueEmail('proxy-users');
    await signUp(page, email);
    await buyThroughSandbox(page, /Residential Proxies/, /^2 GB/);
    await expect(page.getByText('0.000 GB of 2.000 GB')).toBeVisible();
    const account = await page.getByRole('textbox', { name: 'Username' }).inputValue();
    const card = page.getByRole('region', { name: 'Proxy Users' });
    await expect(card.getByText('Main user')).toBeVisible();
    await expect(card.getByText(account, { exact: true })).toBeVisible();
    await expect(card.getByText('0 of 100')).toBeVisible();
    const audit = new Audit(page);
    await audit.check('the Proxy Users card', VIEWS);

    // The first: a total cap of 1 GB, a generated password shown once.
    await card.getByRole('button', { name: 'Create Proxy User' }).click();
    const create = dialog(page, 'Create a proxy user');
    await create.getByRole('textbox', { name: 'Name' }).fill('Team 1');
    await create.getByText('Total', { exact: true }).click();
    await create.getByRole('textbox', { name: 'Cap in GB' }).fill('1');
    await create.getByRole('button', { name: 'Create Proxy User' }).click();
    await expect(create.getByText("A proxy user's name is 1 to 24 lower-case letters and digits.")).toBeVisible();
    await audit.check('the create dialog with a problem', VIEWS);
    await create.getByRole('textbox', { name: 'Name' }).fill('team1');
    await create.getByRole('button', { name: 'Create Proxy User' }).click();
    const shown = dialog(page, 'Password of team1');
    const firstPassword = (await shown.getByTestId('proxy-user-password').textContent()) ?? '';
    expect(firstPassword).toMatch(/^[A-Za-z0-9]{16}$/);
    await expect(shown.getByText(`${account}_team1`)).toBeVisible();
    await audit.check('the password dialog', VIEWS);
    await shown.getByRole('button', { name: 'Done' }).click();

    // The second: a monthly cap of half a GB, a chosen password.
    await card.getByRole('button', { name: 'Create Proxy User' }).click();
    await create.getByRole('textbox', { name: 'Name' }).fill('team2');
    await create.getByText('Choose one', { exact: true }).click();
    await create.getByLabel('Chosen password').fill('Chosen123');
    await create.getByText('Monthly', { exact: true }).click();
    await create.getByRole('textbox', { name: 'Cap in GB' }).fill('0.5');
    await create.getByRole('textbox', { name: 'Note' }).fill('<b>Clients</b> of Lisa');
    await audit.check('the create dialog, monthly', VIEWS);
    await create.getByRole('button', { name: 'Create Proxy User' }).click();
    await expect(dialog(page, 'Password of team2').getByTestId('proxy-user-password')).toHaveText('Chosen123');
    await dialog(page, 'Password of team2').getByRole('button', { name: 'Done' }).click();

    const rows = card.getByTestId('proxy-user-row');
    await expect(rows).toHaveCount(2);
    await expect(card.getByText('2 of 100')).toBeVisible();
    await expect(rows.first()).toContainText('1.000 GB in total');
    await expect(rows.first()).toContainText('0.000 GB of 1.000 GB used in total');
    await expect(rows.nth(1)).toContainText('0.500 GB a month, from day 1');
    // The note is plain text, never markup.
    await expect(rows.nth(1).getByText('<b>Clients</b> of Lisa')).toBeVisible();

    // Rename the second.
    await act(card, 'team2', 'Edit');
    const edit = dialog(page, 'Edit team2');
    await expect(edit.getByRole('textbox', { name: 'Name' })).toHaveValue('team2');
    await audit.check('the edit dialog', VIEWS);
    await edit.getByRole('textbox', { name: 'Name' }).fill('clients');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(rows.nth(1)).toContainText(`${account}_clients`);

    // A new password for the first, shown once, and again on request.
    await act(card, 'team1', 'New Password');
    const renew = dialog(page, 'New password for team1');
    await expect(renew.getByRole('button', { name: 'Set New Password' })).toBeVisible();
    await audit.check('the new password dialog', VIEWS);
    await renew.getByRole('button', { name: 'Set New Password' }).click();
    const newPassword = (await shown.getByTestId('proxy-user-password').textContent()) ?? '';
    expect(newPassword).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(newPassword).not.toBe(firstPassword);
    await shown.getByRole('button', { name: 'Done' }).click();
    await act(card, 'team1', 'Show Password');
    await expect(shown.getByTestId('proxy-user-password')).toHaveText(newPassword);
    await shown.getByRole('button', { name: 'Done' }).click();

    // Pause the second.
    await act(card, 'clients', 'Pause');
    await expect(rows.nth(1).getByText('Paused')).toBeVisible();

    // Raise the first's cap, then read its allowance history.
    await act(card, 'team1', 'Edit');
    await dialog(page, 'Edit team1').getByRole('textbox', { name: 'Cap in GB' }).fill('1.5');
    await dialog(page, 'Edit team1').getByRole('button', { name: 'Save' }).click();
    await expect(rows.first()).toContainText('1.500 GB in total');
    await act(card, 'team1', 'Allowance History');
    const history = dialog(page, 'Allowance history of team1');
    const changes = history.getByRole('table', { name: 'Allowance history of team1' }).getByRole('row');
    await expect(changes).toHaveCount(3);
    await expect(changes.nth(1)).toContainText('1.000 GB in total');
    await expect(changes.nth(1)).toContainText('1.500 GB in total');
    await expect(changes.nth(1)).toContainText(email);
    await expect(changes.nth(2)).toContainText('No cap');
    await audit.check('the allowance history dialog', VIEWS);
    await page.keyboard.press('Escape');

    // Delete the second, after a confirmation.
    await act(card, 'clients', 'Delete');
    const remove = dialog(page, 'Delete clients?');
    await expect(remove.getByRole('button', { name: 'Delete Proxy User' })).toBeVisible();
    await audit.check('the delete dialog', VIEWS);
    await remove.getByRole('button', { name: 'Delete Proxy User' }).click();
    await expect(rows).toHaveCount(1);
    await expect(card.getByText('1 of 100')).toBeVisible();

    // Lines for the first proxy user: its username with the targeting, its password.
    await page.getByRole('combobox', { name: 'User' }).click();
    await page.getByRole('option', { name: 'team1' }).click();
    await page.getByRole('textbox', { name: 'Number of proxies' }).fill('5');
    await page.getByRole('button', { name: 'Generate' }).click();
    const lines = (await page.getByRole('textbox', { name: /Generated proxies/ }).inputValue()).split('\n');
    expect(lines).toHaveLength(5);
    for (const line of lines)
      expect(parseResidentialLine(line)).toMatchObject({ username: `${account}_team1`, password: newPassword });
    // The list by link gives the same proxy user's lines.
    await expect(page.getByText(/product=residential_proxies.*&user=team1/)).toBeVisible();
    await audit.check('the generator with a proxy user', [VIEWS[0], VIEWS[3]]);
    expect(audit.findings).toEqual([]);
  });
});

import { expect, test } from '@playwright/test';
import { paths } from '@storefront/contract';
import { ADMIN_TABS } from '../apps/web/src/features/admin/admin-tabs.ts';
import { Audit, PAIR_A, PAIR_B } from './support/axe.ts';
import { signUp } from './support/helpers.ts';
import { E2E } from './support/ports.ts';

// axe-core on every tab of the administrator's console, with a dialog, a form error and a subnet's IP list open, at 1280
// and 375 px in both colour schemes (see accessibility.spec.ts). Its name ends in admin.spec.ts, so it runs in the
// `admin` project, after the customers' tests: by then the PK1 pool holds their stock, so a subnet can be opened.
// The tabs are walked in two halves, each by its own administrator, so that the two run side by side.

const HALVES = [
  { email: E2E.a11yAdminEmail, tabs: ADMIN_TABS.slice(0, 3) },
  { email: E2E.a11yAdminEmail2, tabs: ADMIN_TABS.slice(3) },
];

for (const { email, tabs } of HALVES) {
  test(`the admin tabs ${tabs.map((tab) => tab.label).join(', ')}, their dialogs and errors`, async ({ page }) => {
    test.setTimeout(300_000);
    const audit = new Audit(page);
    await signUp(page, email);

    for (const tab of tabs) {
      await page.goto(tab.value === 'inventory' ? paths.admin : `${paths.admin}?tab=${tab.value}`);
      await expect(page.getByRole('tab', { name: tab.label })).toHaveAttribute('aria-selected', 'true');
      await page.waitForLoadState('networkidle');
      await expect(page).toHaveTitle(new RegExp(`^${tab.label} – Admin \\| `));
      await audit.check(`admin, ${tab.label}`);

      if (tab.value === 'pk1_inventory_list') {
        // A subnet's IPs, in a list that scrolls inside its card (by keyboard too: the list takes the focus).
        const subnets = page.locator('button[aria-controls^="subnet-"]');
        for (const pool of ['PK1 ISP', 'Elite ISP']) {
          if ((await subnets.count()) > 0) break;
          await page.getByText(pool, { exact: true }).click();
          await page.waitForLoadState('networkidle');
        }
        await subnets.first().click();
        const list = page.getByRole('region', { name: /^IPs of / });
        await expect(list).toBeVisible();
        await expect(list).toHaveAttribute('tabindex', '0');
        await audit.check('admin, a subnet open', PAIR_A);
      }
      if (tab.value === 'active_coupons') {
        await page.getByRole('button', { name: 'Add Coupon' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add Coupon' });
        await expect(dialog).toBeVisible();
        await audit.check('admin, Add Coupon dialog', PAIR_B);
        // A list box open (the Duration select's).
        await dialog.getByRole('combobox', { name: 'Duration' }).click();
        await expect(page.getByRole('listbox')).toBeVisible();
        await audit.check('admin, Add Coupon dialog, Duration list open');
        await page.keyboard.press('Escape');
        await expect(page.getByRole('listbox')).toBeHidden();
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      }
      if (tab.value === 'custom_ordering') {
        await page.getByRole('textbox', { name: 'Customer e-mail' }).fill('not an address');
        await page.getByRole('button', { name: 'Search' }).click();
        await expect(page.getByRole('alert').filter({ hasText: 'Failed to find user' }).first()).toBeVisible();
        await audit.check('admin, Custom Ordering error', PAIR_A);
        // A select's list, opened inside the main landmark.
        await page.getByRole('button', { name: 'Create Custom Order' }).click();
        await page.getByRole('combobox', { name: 'Proxy type' }).click();
        await expect(page.getByRole('main').getByRole('listbox', { name: 'Proxy type' })).toBeVisible();
        await audit.check('admin, Custom Ordering, Proxy type list open', PAIR_B);
        await page.keyboard.press('Escape');
      }
    }

    expect(audit.findings).toEqual([]);
  });
}

import { expect, type Page } from '@playwright/test';
import { E2E } from './ports.ts';

export const STRONG_PASSWORD = 'Str0ng!pass';

let counter = 0;
/** A fresh address per test run and call, so tests never share an account. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}@e2e.test`;
}

/** Decodes the quoted-printable text part of a raw message enough to read its links. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Waits for a message to `to` whose text matches `pattern` and returns the first link to the app in it. */
export async function linkFromMail(to: string, pattern: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`http://127.0.0.1:${E2E.controlPort}/mails?to=${encodeURIComponent(to)}`);
        const mails = (await response.json()) as { raw: string }[];
        for (const mail of mails.reverse()) {
          const text = decodeQuotedPrintable(mail.raw);
          if (!pattern.test(text)) continue;
          link = new RegExp(`${E2E.appUrl.replaceAll('.', '\\.')}[^\\s"<>]+`).exec(text)?.[0];
          if (link) return link;
        }
        return undefined;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return link ?? '';
}

export async function setNextSocialIdentity(identity: {
  sub: string;
  email: string;
  name: string;
  /** Whether the provider says it verified the address (it does unless told otherwise). */
  email_verified?: boolean;
}) {
  await fetch(`http://127.0.0.1:${E2E.controlPort}/oidc/identity`, { method: 'POST', body: JSON.stringify(identity) });
}

export const passwordField = (page: Page) => page.getByRole('textbox', { name: /^(New )?password/i });
export const confirmField = (page: Page) => page.getByRole('textbox', { name: /^Confirm/ });

export async function signUp(page: Page, email: string, password = STRONG_PASSWORD) {
  await page.goto('/signup');
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await passwordField(page).fill(password);
  await confirmField(page).fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  // No session before the address is confirmed: the mailed link leads to /auth/callback, which takes the password
  // the account was signed up with and signs in.
  await page.goto(await linkFromMail(email, /verify-email/));
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Confirm and sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
}

export async function signIn(page: Page, email: string, password = STRONG_PASSWORD) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByText('Signed out')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
}

/** Buys a bundle through the Purchase page and the sandbox's payment page; ends on the Proxies page. */
export async function buyThroughSandbox(page: Page, product: RegExp, bundle: RegExp) {
  await page.goto('/dashboard/purchase');
  await page.getByRole('button', { name: product }).click();
  await page.getByRole('group', { name: 'Bundles' }).getByRole('button', { name: bundle }).click();
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await page.getByRole('button', { name: 'Pay with test card' }).click();
  await expect(page).toHaveURL(/\/dashboard\/proxies\?tab=/);
  // Told once that the payment went through; the address keeps only its tab.
  await expect(page.getByText('Payment received').last()).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/proxies\?tab=[a-z0-9_]+$/);
}

/**
 * The next page load is drawn by the browser, as for a visitor whose time zone the server does not know yet: the
 * server then sends a signed-in page's frame and the page reads its data itself, so a test can make those reads fail
 * (`page.route`) or wait. The page's own script tells the server the zone again.
 */
export async function nextPageDrawnByBrowser(page: Page) {
  await page.context().clearCookies({ name: 'tz' });
}

/**
 * Waits until a page the server drew for its reader has hydrated: the layout keeps it `inert` until then, so a forced
 * click (which skips Playwright's checks) would be lost on it.
 */
export async function pageLive(page: Page) {
  await expect(page.locator('main > [inert]')).toHaveCount(0);
}

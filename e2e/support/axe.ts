import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The four ways a page is looked at: a laptop and a phone, each in the light and the dark colour scheme. */
export const VIEWS = [
  { name: '1280 light', width: 1280, height: 800, scheme: 'light' },
  { name: '1280 dark', width: 1280, height: 800, scheme: 'dark' },
  { name: '375 light', width: 375, height: 740, scheme: 'light' },
  { name: '375 dark', width: 375, height: 740, scheme: 'dark' },
] as const;
export type View = (typeof VIEWS)[number];
export const WIDE = VIEWS.filter((view) => view.width === 1280);
export const NARROW = VIEWS.filter((view) => view.width === 375);
/**
 * Two views that between them cover both widths and both schemes: for the further states of a page already checked in
 * all four (a second error, a list opened), each checked in one pair, so the suite stays short.
 */
export const PAIR_A = [VIEWS[0], VIEWS[3]];
export const PAIR_B = [VIEWS[1], VIEWS[2]];

/**
 * Puts the page in `view`: its size, and its colour scheme the way the app's switch sets it (Mantine's stored choice and
 * the attribute its CSS reads), without a reload, so an open dialog, menu or toast stays open.
 */
export async function showView(page: Page, view: View) {
  const size = page.viewportSize();
  if (size?.width !== view.width || size.height !== view.height)
    await page.setViewportSize({ width: view.width, height: view.height });
  await page.evaluate((scheme) => {
    localStorage.setItem('mantine-color-scheme-value', scheme);
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  }, view.scheme);
}

/** Waits for the page to be still: no CSS transition running (a dialog sliding in, a colour fading), fonts loaded. */
export async function settled(page: Page) {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running'),
    undefined,
    { timeout: 5_000 },
  );
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** Every finding of axe (all rules, every impact), one line each, on the page as it is now. */
export async function axeFindings(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes
        .slice(0, 5)
        .map((node) => node.target.join(' '))
        .join(', ')}`,
  );
}

/**
 * Collects axe's findings over many states of the app; the test asserts the list is empty at its end, so one run shows
 * every finding rather than the first.
 */
export class Audit {
  readonly findings: string[] = [];
  readonly states: string[] = [];
  private readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  /**
   * Checks the page as it is now in each of `views`. `open` (optional) brings the state about in each view first (a toast
   * that closes by itself, a menu that only a phone shows); without it the state stays on screen across the views.
   */
  async check(label: string, views: readonly View[] = VIEWS, open?: (view: View) => Promise<void>) {
    // A toast left by the step before closes on its own timer, and one fading out while axe reads the page fails its
    // contrast at random: the state checked is the page without it (a toast meant to be checked comes by `open`).
    const toasts = this.page.locator('.mantine-Notification-root');
    if (!open && (await toasts.count()) > 0) {
      // A pointer resting on a toast holds it open.
      await this.page.mouse.move(0, 0);
      await expect(toasts).toHaveCount(0, { timeout: 8000 });
    }
    for (const view of views) {
      await showView(this.page, view);
      if (open) await open(view);
      await settled(this.page);
      this.states.push(`${label} [${view.name}]`);
      for (const finding of await axeFindings(this.page)) this.findings.push(`${label} [${view.name}] ${finding}`);
    }
  }
}

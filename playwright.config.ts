import { defineConfig, devices } from '@playwright/test';
import { E2E } from './e2e/support/ports.ts';

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: E2E.appUrl,
    trace: 'off',
    launchOptions: {
      // Debian's Chromium; Playwright never downloads a browser here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'] }, testIgnore: /(time|admin|top-up)\.spec\.ts$/ },
    // Switches products off and swaps pool subnets of the shared app, so it runs after the customers' tests.
    { name: 'admin', use: { ...devices['Desktop Chrome'] }, testMatch: /admin\.spec\.ts$/, dependencies: ['chromium'] },
    // Moves the shared app's sandbox clock forward, so it runs alone, after every other test.
    { name: 'time', use: { ...devices['Desktop Chrome'] }, testMatch: /time\.spec\.ts$/, dependencies: ['admin'] },
    // Moves the clock too, by hours, to run its customers' top-ups: alone, after the clock's own test.
    { name: 'top-up', use: { ...devices['Desktop Chrome'] }, testMatch: /top-up\.spec\.ts$/, dependencies: ['time'] },
  ],
  webServer: {
    // The built app on a fresh in-memory database, with an SMTP server and an OpenID Connect provider (e2e/support).
    command: 'node e2e/support/stack.ts',
    url: `${E2E.appUrl}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});

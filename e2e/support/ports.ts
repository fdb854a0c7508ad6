const appPort = Number(process.env.E2E_PORT ?? 3100);

export const E2E = {
  appPort,
  appUrl: `http://127.0.0.1:${appPort}`,
  smtpPort: appPort + 25,
  oidcPort: appPort + 26,
  controlPort: appPort + 27,
  gatewayPort: appPort + 28,
  gatewayEndpoint: `127.0.0.1:${appPort + 28}`,
  adminEmail: 'admin@e2e.test',
  /** A second administrator, for tests that stock the pools. */
  stockAdminEmail: 'stock-admin@e2e.test',
  /** The administrator who works the console's screens (e2e/admin.spec.ts). */
  consoleAdminEmail: 'console-admin@e2e.test',
  /** The administrator who moves the sandbox's test clock (e2e/time.spec.ts). */
  clockAdminEmail: 'clock-admin@e2e.test',
  /** The administrator who moves the clock for the top-ups (e2e/top-up.spec.ts). */
  topUpAdminEmail: 'top-up-admin@e2e.test',
  /** The administrators who open every page for the accessibility check (e2e/accessibility*.spec.ts), two at once. */
  a11yAdminEmail: 'a11y-admin@e2e.test',
  a11yAdminEmail2: 'a11y-admin-2@e2e.test',
  /** The administrator whose console is measured for layout shifts and checked for its chunk (e2e/signed-in-speed.spec.ts). */
  speedAdminEmail: 'speed-admin@e2e.test',
  /** The administrator whose console's long tasks are measured (e2e/long-tasks.spec.ts, when asked). */
  longTasksAdminEmail: 'long-tasks-admin@e2e.test',
} as const;

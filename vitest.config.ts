import { defineConfig } from 'vitest/config';

const apiTests = ['apps/server/src/**/*.api.test.ts'];
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

// The API test files share their worker's modules (isolate: false): each builds its own app on its own database and
// nothing of the server keeps state in a module (metrics have a registry per app), so loading the server once per
// worker instead of once per file loses nothing and saves a third of the CPU time on a 2-core machine. Measured on
// ten module files (api-pglite, same load): 110 s wall / 93 s CPU isolated on one worker, 62 s / 60 s shared on two.
const apiProject = { isolate: false, testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    // Two workers even on two cores (vitest's default there is one): an API test spends much of its time waiting on
    // PostgreSQL, Redis or a child process, which the other worker uses.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
          exclude: [...apiTests, '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'api-pglite',
          include: apiTests,
          env: { TEST_DB: 'pglite' },
          ...apiProject,
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                name: 'api-postgres',
                include: apiTests,
                env: { TEST_DB: 'postgres' },
                ...apiProject,
              },
            },
          ]
        : []),
    ],
  },
});

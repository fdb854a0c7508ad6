import { defineConfig } from 'vitest/config';

const apiTests = ['apps/server/src/**/*.api.test.ts'];
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                name: 'api-postgres',
                include: apiTests,
                env: { TEST_DB: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});

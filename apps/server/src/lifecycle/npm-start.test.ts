import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { repoRoot, type Service, startService, tempDir } from '../test/service.ts';

// `npm start` is `node scripts/start.ts`, from the working folder whose `.env` it reads.
const start = path.join(repoRoot, 'scripts/start.ts');
const folder = tempDir('storefront-npm-start-');
const services: Service[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.kill()));
});
afterAll(() => folder.cleanup());

describe('npm start', () => {
  it("takes .env's NODE_ENV=production over its own development default, and refuses before building", async () => {
    writeFileSync(
      path.join(folder.dir, '.env'),
      'NODE_ENV=production\nDATABSE_URL=postgres://shop@db.example/shop\nSTRIPE_SECRT_KEY=sk_live_abc\nPORT=0\nGATEWAY_PORT=0\nMETRICS_PORT=0\n',
    );
    const npmStart = startService(process.execPath, [start], { cwd: folder.dir, env: {} });
    services.push(npmStart);
    // Building or serving means the configuration was taken: stop there rather than wait for either.
    const outcome = await npmStart.waitFor(/Building the web app|ready at/, 60_000).then(
      () => 'started',
      () => npmStart.exited,
    );
    expect(outcome, npmStart.output()).toBe(1);
    expect(npmStart.output()).toContain('DATABSE_URL is not a setting of the shop: did you mean DATABASE_URL?');
    expect(npmStart.output()).toContain(
      'STRIPE_SECRT_KEY is not a setting of the shop: did you mean STRIPE_SECRET_KEY?',
    );
    expect(npmStart.output()).toMatch(/STRIPE_SECRET_KEY is required in production/);
  }, 90_000);
});

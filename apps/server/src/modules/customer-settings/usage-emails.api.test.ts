import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerPreferences, emailOutbox, residentialAccounts } from '../../db/schema.ts';
import { startGateway } from '../../gateway/gateway.ts';
import type { Mail } from '../../lib/mailer.ts';
import { testBrand } from '../../test/payments.ts';
import { httpThroughProxy, startTargetServer } from '../../test/proxy-client.ts';
import { createResidentialAccount } from '../../test/residential-account.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { queueUsageEmails } from './usage-emails.ts';

const silent = { info() {}, warn() {}, error() {}, child: () => silent } as unknown as FastifyBaseLogger;

describe('usage e-mails at 80 % and 100 % of residential data', () => {
  let t: TestApp;
  const queue = () => queueUsageEmails({ db: t.database.db, brand: testBrand });
  const setUsage = (userId: string, values: { usedKb?: number; totalKb?: number }) =>
    t.database.db.update(residentialAccounts).set(values).where(eq(residentialAccounts.userId, userId));
  const mailsTo = async (userId: string) =>
    (
      await t.database.db
        .select({ key: emailOutbox.dedupeKey, subject: emailOutbox.subject, text: emailOutbox.text })
        .from(emailOutbox)
    ).filter((row) => row.key.includes(userId));

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes each level once per purchase level, again after a purchase raises the total', async () => {
    const customer = await createResidentialAccount(t.database.db, { totalKb: 1000, usedKb: 790 });
    await queue();
    expect(await mailsTo(customer.userId)).toEqual([]);
    await setUsage(customer.userId, { usedKb: 800 });
    await queue();
    await queue();
    const eighty = await mailsTo(customer.userId);
    expect(eighty.map((mail) => mail.key)).toEqual([`usage:80:${customer.userId}:1000`]);
    expect(eighty[0]?.subject).toBe('You have used 80 % of your residential data');
    expect(eighty[0]?.text).toContain(`Buy more data: ${testBrand.appUrl}/dashboard/purchase`);
    await setUsage(customer.userId, { usedKb: 1000 });
    await queue();
    await queue();
    expect((await mailsTo(customer.userId)).map((mail) => mail.key)).toEqual([
      `usage:80:${customer.userId}:1000`,
      `usage:100:${customer.userId}:1000`,
    ]);
    // A purchase: 1000 of 3000 used is under 80 %; at 2400 the 80 % e-mail is due again, for this total.
    await setUsage(customer.userId, { totalKb: 3000 });
    await queue();
    expect(await mailsTo(customer.userId)).toHaveLength(2);
    await setUsage(customer.userId, { usedKb: 2400 });
    await queue();
    expect((await mailsTo(customer.userId)).map((mail) => mail.key)).toContain(`usage:80:${customer.userId}:3000`);
  });

  it('sends only the 100 % e-mail when both are passed at once, and none when the customer turned them off', async () => {
    const jumped = await createResidentialAccount(t.database.db, { totalKb: 1000, usedKb: 0 });
    await setUsage(jumped.userId, { usedKb: 1200 });
    await queue();
    const mails = await mailsTo(jumped.userId);
    expect(mails.map((mail) => mail.key)).toEqual([`usage:100:${jumped.userId}:1000`]);
    expect(mails[0]?.subject).toBe('Your residential data is used up');
    const quiet = await createResidentialAccount(t.database.db, { totalKb: 1000, usedKb: 900 });
    await t.database.db.insert(customerPreferences).values({ userId: quiet.userId, usageEmails: false });
    await queue();
    expect(await mailsTo(quiet.userId)).toEqual([]);
  });

  it('is sent by the periodic job after the gateway carried the data past 80 %', async () => {
    const target = await startTargetServer();
    const gateway = await startGateway({
      db: t.database.db,
      config: { ...t.config.gateway, host: '127.0.0.1', port: 0, allowPrivateTargets: true, cacheMs: 0 },
      log: silent,
    });
    try {
      const customer = await createResidentialAccount(t.database.db, { totalKb: 100 });
      const answer = await httpThroughProxy(
        gateway.port,
        `http://127.0.0.1:${target.port}/bytes?n=85000`,
        customer.auth,
      );
      expect(answer.status).toBe(200);
      await gateway.flush();
      const sent: Mail[] = [];
      await runJobs(
        {
          db: t.database.db,
          brand: testBrand,
          mailer: { delivers: true, send: async (mail: Mail) => void sent.push(mail) },
          log: t.app.log,
          provider: 'sandbox',
        },
        new Date(),
      );
      const mine = sent.filter((mail) => mail.to === `${customer.username}@example.com`);
      expect(mine.map((mail) => mail.subject)).toEqual(['You have used 80 % of your residential data']);
    } finally {
      await gateway.close();
      await target.close();
    }
  });
});

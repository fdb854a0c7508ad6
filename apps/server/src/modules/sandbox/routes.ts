import { endpoints } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { privateNoStore } from '../../lib/no-store.ts';
import { routeOf } from '../../lib/route.ts';
import type { SandboxProvider } from '../../payments/sandbox-provider.ts';
import { actorOf, type Guards, signedInOf } from '../auth/guards.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { getSandboxCardSetup, saveSandboxCard } from '../top-up/card-setup.ts';
import { getSandboxBilling, setSandboxCard } from './billing.ts';
import { getSandboxCheckout } from './checkout-page.ts';
import { getSandboxInvoice } from './invoice.ts';
import { moveSandboxClock } from './move-clock.ts';
import { paySandboxCheckout } from './pay-checkout.ts';

export interface SandboxRoutesOptions {
  db: Db;
  guards: Guards;
  provider: SandboxProvider;
  brand: Branding;
  jobs: JobRunner;
}

/**
 * The sandbox provider's hosted pages (ARCHITECTURE section 5): the payment page of a checkout, which only its customer
 * may open and pay, printable invoices reached by their unguessable id, the billing page of a subscription, and the test
 * clock. One use case per file beside this one.
 */
export const sandboxRoutes: FastifyPluginAsync<SandboxRoutesOptions> = async (
  app,
  { db, guards, provider, brand, jobs },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onSend', privateNoStore);

  api.route({
    ...routeOf(endpoints.getSandboxCheckout, guards),
    handler: async (request) =>
      getSandboxCheckout({
        db,
        appUrl: brand.appUrl,
        checkoutId: request.params.id,
        userId: signedInOf(request).user.id,
      }),
  });

  api.route({
    ...routeOf(endpoints.paySandboxCheckout, guards),
    handler: async (request) => {
      const answer = await paySandboxCheckout({
        db,
        provider,
        brand,
        log: request.log,
        checkoutId: request.params.id,
        userId: signedInOf(request).user.id,
        card: request.body.card,
      });
      if (answer.status === 'paid') jobs.flushEmails();
      return answer;
    },
  });

  api.route({
    ...routeOf(endpoints.getSandboxInvoice),
    handler: async (request) => getSandboxInvoice({ db, invoiceId: request.params.id }),
  });

  api.route({
    ...routeOf(endpoints.getSandboxBilling, guards),
    handler: async (request) =>
      getSandboxBilling({ db, orderId: request.params.id, userId: signedInOf(request).user.id }),
  });

  api.route({
    ...routeOf(endpoints.setSandboxCard, guards),
    handler: async (request) => {
      const { billing, charged } = await setSandboxCard({
        db,
        brand,
        invoices: provider,
        orderId: request.params.id,
        userId: signedInOf(request).user.id,
        card: request.body.card,
      });
      if (charged) jobs.flushEmails();
      return billing;
    },
  });

  api.route({
    ...routeOf(endpoints.getSandboxCardSetup, guards),
    handler: async (request) => getSandboxCardSetup(db, brand, request.params.id, signedInOf(request).user.id),
  });

  api.route({
    ...routeOf(endpoints.saveSandboxCard, guards),
    handler: async (request) =>
      saveSandboxCard({
        db,
        brand,
        id: request.params.id,
        userId: signedInOf(request).user.id,
        card: request.body.card,
      }),
  });
};

/** The sandbox's clock, for administrators: registered in the admin context (modules/admin/admin-api.ts). */
export const sandboxAdminRoutes: FastifyPluginAsync<Pick<SandboxRoutesOptions, 'db' | 'jobs'>> = async (
  app,
  { db, jobs },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({
    ...routeOf(endpoints.moveSandboxClock),
    handler: async (request) => moveSandboxClock({ db, jobs, actor: actorOf(request), to: new Date(request.body.now) }),
  });
};

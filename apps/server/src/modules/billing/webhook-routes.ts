import { errorResponseSchema } from '@storefront/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Counter } from 'prom-client';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { type PaymentProvider, WebhookSignatureError } from '../../payments/provider.ts';
import { SANDBOX_SIGNATURE_HEADER } from '../../payments/sandbox-provider.ts';
import { EventTooEarlyError, handlePaymentEvent } from './handle-event.ts';

const SIGNATURE_HEADERS = { stripe: 'stripe-signature', sandbox: SANDBOX_SIGNATURE_HEADER } as const;

/**
 * POST /api/webhooks/{provider} for the active provider. The body is kept raw (the signature is computed on its bytes);
 * 400 for a bad signature, 200 once the event is recorded (a repeat answers 200 and does nothing); 503 for an event that
 * overtook its order's payment and 500 on a failure both make the provider send it again.
 */
export const webhookRoutes: FastifyPluginAsync<{
  db: Db;
  provider: PaymentProvider;
  brand: Branding;
  /** Sends the e-mails the event queued (the job runner's), in the background. */
  flushEmails: () => void;
  /** storefront_webhook_events_total (lib/metrics.ts). */
  events: Counter<'provider' | 'type' | 'result'>;
}> = async (app, { db, provider, brand, flushEmails, events }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_request, body, done) =>
    done(null, body),
  );

  app.withTypeProvider<ZodTypeProvider>().post(
    `/webhooks/${provider.name}`,
    {
      schema: {
        tags: ['payments'],
        summary: `Events of the ${provider.name} payment provider (signed)`,
        response: {
          200: z.object({ received: z.literal(true), outcome: z.string() }),
          400: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const rawBody = request.body;
      if (!Buffer.isBuffer(rawBody)) return reply.status(400).send({ message: 'The webhook body is missing.' });
      const signature = request.headers[SIGNATURE_HEADERS[provider.name]];
      let type = 'unknown';
      const count = (result: string) => events.inc({ provider: provider.name, type, result });
      try {
        const event = await provider.parseWebhook(rawBody, typeof signature === 'string' ? signature : undefined);
        type = event.type;
        const outcome = await handlePaymentEvent({ db, provider: provider.name, event, brand });
        request.log.info({ eventId: event.eventId, type: event.type, outcome }, 'payment event');
        count(outcome);
        flushEmails();
        return { received: true as const, outcome };
      } catch (error) {
        if (error instanceof EventTooEarlyError) {
          count('too_early');
          request.log.info("payment event ahead of its order's payment: asked to send it again");
          return reply.status(503).header('retry-after', '60').send({ message: error.message });
        }
        if (error instanceof WebhookSignatureError) {
          count('bad_signature');
          request.log.warn('payment webhook with a bad signature');
          return reply.status(400).send({ message: error.message });
        }
        count('failed');
        throw error;
      }
    },
  );
};

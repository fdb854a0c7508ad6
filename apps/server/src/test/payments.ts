import { randomUUID } from 'node:crypto';
import type { PaymentEvent } from '../payments/provider.ts';

/** A paid-checkout event for an order, as a provider would report it. */
export function paidEvent(orderId: string): PaymentEvent {
  return {
    kind: 'checkout.paid',
    eventId: `evt_${randomUUID()}`,
    type: 'sandbox.checkout.paid',
    orderId,
    invoice: {
      id: `in_${randomUUID()}`,
      hostedUrl: null,
      amountCents: 1250,
      discountCents: 0,
      currency: 'usd',
      paidAt: new Date(),
    },
    customerEmail: null,
    subscriptionId: null,
    customerId: null,
    periodEnd: null,
  };
}

/** `size` IPs of the ISP pool in documentation ranges, each a distinct ip:port. */
export function testPool(size: number) {
  return Array.from({ length: size }, (_, index) => {
    const ip = `198.51.100.${(index % 250) + 1}`;
    const port = 20_000 + index;
    return {
      productId: 'isp_proxies' as const,
      ip,
      port,
      username: 'u',
      password: 'p',
      endpoint: `${ip}:${port}:u:p`,
      subnet: '198.51.100.0/24',
    };
  });
}

/** The brand the shop's e-mails carry, for tests and benchmarks that call use cases directly. */
export const testBrand = { brandName: 'Proxy Storefront', appUrl: 'http://localhost:3000' };

/** The body of the sandbox's webhook for a paid checkout, as `signEvent` writes it (sign it with the sandbox's secret). */
export function sandboxPaidPayload(event: {
  eventId: string;
  orderId: string;
  customerEmail: string;
  invoiceId: string;
  /** Null for one-off purchases (residential data). */
  periodEnd: string | null;
}): string {
  return JSON.stringify({
    id: event.eventId,
    type: 'sandbox.checkout.paid',
    created: Math.floor(Date.now() / 1000),
    data: {
      orderId: event.orderId,
      customerEmail: event.customerEmail,
      invoice: {
        id: event.invoiceId,
        hostedUrl: `http://localhost:3000/sandbox/invoices/${event.invoiceId}`,
        amountCents: 1250,
        discountCents: 0,
        currency: 'usd',
        paidAt: new Date().toISOString(),
      },
      periodEnd: event.periodEnd,
    },
  });
}

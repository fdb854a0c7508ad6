import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The form body (or query) flattened as Stripe encodes it: `line_items[0][quantity]` → '5'. */
  params: Record<string, string>;
  idempotencyKey: string | undefined;
}

export interface FakeStripe {
  url: string;
  requests: RecordedRequest[];
  /** The requests of one kind, e.g. 'POST /v1/checkout/sessions'. */
  find(route: string): RecordedRequest[];
  /**
   * Answers the next request of this kind with a Stripe error: 400 by default (a refusal, not retried by the SDK); a 5xx
   * is retried by the SDK, so `times` answers that many in a row.
   */
  failNext(route: string, status?: number, times?: number): void;
  /** Never answers requests whose `METHOD /path` starts with `prefix` (Stripe hanging), until `release()`. */
  hang(prefix: string): void;
  /** Stops hanging: requests held so far are dropped (their clients have timed out), later ones are answered. */
  release(): void;
  /** Requests received and not answered (hanging) right now. */
  held(): number;
  /** The objects it keeps, by id (coupons, promotion codes, subscriptions…). */
  objects: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let data = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      data += chunk;
    });
    request.on('end', () => resolve(data));
    request.on('error', reject);
  });

/**
 * A local stand-in for api.stripe.com that records every request and answers like Stripe for the calls the shop makes:
 * prices by lookup key, products, coupons, promotion codes, Checkout Sessions, invoices and subscriptions.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const failures = new Map<string, { status: number; times: number }>();
  let hanging: string | undefined;
  const heldResponses = new Set<ServerResponse>();
  const objects = new Map<string, Record<string, unknown>>();
  let counter = 0;
  const next = (prefix: string) => `${prefix}_${String(++counter).padStart(6, '0')}`;

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const body = await readBody(request);
    const params = Object.fromEntries(new URLSearchParams(request.method === 'GET' ? url.search : body));
    const route = `${request.method} ${url.pathname}`;
    const key = request.headers['idempotency-key'];
    requests.push({
      method: request.method ?? '',
      path: url.pathname,
      params,
      idempotencyKey: typeof key === 'string' ? key : undefined,
    });

    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': next('req') });
      response.end(JSON.stringify(payload));
    };
    const notFound = (what: string) =>
      send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } });

    if (hanging !== undefined && route.startsWith(hanging)) {
      heldResponses.add(response);
      response.on('close', () => heldResponses.delete(response));
      return;
    }
    const failure = failures.get(route);
    if (failure) {
      if (--failure.times <= 0) failures.delete(route);
      const type = failure.status >= 500 ? 'api_error' : 'invalid_request_error';
      return send(failure.status, {
        error: {
          type,
          code: failure.status < 500 ? 'parameter_invalid_integer' : undefined,
          message: 'Simulated failure',
        },
      });
    }
    const [, , resource, id] = url.pathname.split('/');
    if (route === 'GET /v1/prices') {
      const keys = Object.entries(params)
        .filter(([name]) => name.startsWith('lookup_keys'))
        .map(([, value]) => value);
      const data = [...objects.values()].filter(
        (object) => object.object === 'price' && keys.includes(String(object.lookup_key)),
      );
      return send(200, { object: 'list', data, has_more: false, url: '/v1/prices' });
    }
    if (route === 'POST /v1/checkout/sessions') {
      const sessionId = next('cs_test');
      return send(200, {
        id: sessionId,
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${sessionId}`,
      });
    }
    if (request.method === 'POST' && resource && !id) {
      const prefixes: Record<string, string> = {
        products: 'prod',
        prices: 'price',
        coupons: 'coup',
        promotion_codes: 'promo',
        checkout: 'cs_test',
      };
      if (resource === 'checkout') {
        const sessionId = next('cs_test');
        return send(200, {
          id: sessionId,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${sessionId}`,
        });
      }
      // Stripe's rule: a code is unique among the active promotion codes, and a code is active only while its coupon
      // exists. The same code of ours made again (an idempotent retry at Stripe) is not a second code.
      const couponOf = (object: Record<string, unknown>) => String(object['promotion[coupon]'] ?? object.coupon);
      const clash = (object: Record<string, unknown>) =>
        object.object === 'promotion_code' &&
        String(object.code).toLowerCase() === String(params.code).toLowerCase() &&
        object.active !== 'false' &&
        objects.has(couponOf(object)) &&
        object['metadata[promoCodeId]'] !== params['metadata[promoCodeId]'];
      if (resource === 'promotion_codes' && [...objects.values()].some(clash)) {
        return send(400, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_already_exists',
            message: `An active promotion code with \`code: ${params.code}\` already exists.`,
          },
        });
      }
      const objectId = params.id ?? next(prefixes[resource] ?? resource);
      if (objects.has(objectId)) {
        return send(400, {
          error: { type: 'invalid_request_error', code: 'resource_already_exists', message: `${objectId} exists` },
        });
      }
      const object = { ...params, id: objectId, object: resource.replace(/s$/, '') };
      objects.set(objectId, object);
      return send(200, object);
    }
    if (request.method === 'POST' && resource === 'promotion_codes' && id) {
      const updated = { ...(objects.get(id) ?? { id, object: 'promotion_code' }), ...params };
      objects.set(id, updated);
      return send(200, updated);
    }
    if (request.method === 'DELETE' && resource === 'coupons' && id) {
      if (!objects.delete(id)) return notFound(`coupon: '${id}'`);
      return send(200, { id, object: 'coupon', deleted: true });
    }
    if (request.method === 'GET' && resource === 'coupons' && id) {
      const coupon = objects.get(id);
      return coupon ? send(200, coupon) : notFound(`coupon: '${id}'`);
    }
    if (request.method === 'POST' && resource === 'subscriptions' && id) {
      const updated = { ...(objects.get(id) ?? { id, object: 'subscription' }), ...params };
      objects.set(id, updated);
      return send(200, updated);
    }
    if (request.method === 'GET' && resource === 'products' && id) {
      const product = objects.get(id);
      return product ? send(200, product) : notFound(`product: '${id}'`);
    }
    if (request.method === 'GET' && resource === 'invoices' && id) {
      return send(200, {
        id,
        object: 'invoice',
        hosted_invoice_url: `https://invoice.stripe.test/i/${id}`,
        amount_paid: 1125,
        currency: 'usd',
        total_discount_amounts: [{ amount: 125, discount: 'di_1' }],
        status_transitions: { paid_at: 1_795_300_000 },
      });
    }
    if (request.method === 'GET' && resource === 'subscriptions' && id) {
      return send(200, {
        id,
        object: 'subscription',
        cancel_at_period_end: objects.get(id)?.cancel_at_period_end === 'true',
        items: { object: 'list', data: [{ id: 'si_1', current_period_end: 1_795_300_000 + 30 * 86_400 }] },
      });
    }
    return notFound(route);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    find: (route) => requests.filter((recorded) => `${recorded.method} ${recorded.path}` === route),
    failNext: (route, status = 400, times = 1) => failures.set(route, { status, times }),
    hang: (prefix) => {
      hanging = prefix;
    },
    release: () => {
      hanging = undefined;
      for (const response of heldResponses) response.destroy();
      heldResponses.clear();
    },
    held: () => heldResponses.size,
    objects,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of heldResponses) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

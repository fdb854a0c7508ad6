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

type Params = Record<string, string>;
type StripeObject = Record<string, unknown>;
type Answer = [status: number, payload: unknown];

/** What the stand-in keeps: Stripe's objects by id, and a counter for the ids it makes. */
class Store {
  readonly objects = new Map<string, StripeObject>();
  /** Answers by idempotency key, for the calls that honour one here (PaymentIntents). */
  readonly answers = new Map<string, Answer>();
  #counter = 0;
  next(prefix: string) {
    return `${prefix}_${String(++this.#counter).padStart(6, '0')}`;
  }
}

const stripeError = (status: number, code: string | undefined, message: string): Answer => [
  status,
  { error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', code, message } },
];
const notFound = (what: string): Answer => stripeError(404, 'resource_missing', `No such ${what}`);

/**
 * A local stand-in for api.stripe.com that records every request and answers like Stripe for the calls the shop makes:
 * prices by lookup key, products, coupons, promotion codes, Checkout Sessions, invoices and subscriptions.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const failures = new Map<string, { status: number; times: number }>();
  let hanging: string | undefined;
  const heldResponses = new Set<ServerResponse>();
  const store = new Store();

  const server: Server = createServer(async (request, response) => {
    const recorded = await recordedRequest(request);
    requests.push(recorded);
    const route = `${recorded.method} ${recorded.path}`;
    if (hanging !== undefined && route.startsWith(hanging)) {
      heldResponses.add(response);
      response.on('close', () => heldResponses.delete(response));
      return;
    }
    const [status, payload] = failureOf(failures, route) ?? answer(store, recorded);
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': store.next('req') });
    response.end(JSON.stringify(payload));
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
    objects: store.objects,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of heldResponses) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function recordedRequest(request: IncomingMessage): Promise<RecordedRequest> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const body = await readBody(request);
  const key = request.headers['idempotency-key'];
  return {
    method: request.method ?? '',
    path: url.pathname,
    params: Object.fromEntries(new URLSearchParams(request.method === 'GET' ? url.search : body)),
    idempotencyKey: typeof key === 'string' ? key : undefined,
  };
}

/** The failure asked for with `failNext`, counted down; none when no failure waits for this route. */
function failureOf(failures: Map<string, { status: number; times: number }>, route: string): Answer | undefined {
  const failure = failures.get(route);
  if (!failure) return undefined;
  if (--failure.times <= 0) failures.delete(route);
  return stripeError(
    failure.status,
    failure.status < 500 ? 'parameter_invalid_integer' : undefined,
    'Simulated failure',
  );
}

/** Stripe's answer to one request, by route. */
function answer(store: Store, { method, path, params, idempotencyKey }: RecordedRequest): Answer {
  const [, , resource, id] = path.split('/');
  const route = `${method} ${path}`;
  if (route === 'GET /v1/prices') return listPrices(store, params);
  if (route === 'POST /v1/checkout/sessions') return createSession(store);
  if (route === 'POST /v1/payment_intents') return createPaymentIntent(store, params, idempotencyKey);
  if (method === 'GET' && resource === 'payment_intents' && id) {
    const intent = store.objects.get(id);
    return intent ? [200, intent] : notFound(`payment_intent: '${id}'`);
  }
  if (method === 'GET' && resource === 'setup_intents' && id) return [200, succeededSetupIntent(id)];
  if (method === 'POST' && resource === 'payment_methods' && path.endsWith('/detach')) {
    return [200, { id, object: 'payment_method', customer: null }];
  }
  if (method === 'POST' && resource && !id) return createObject(store, resource, params);
  if (method === 'POST' && (resource === 'promotion_codes' || resource === 'subscriptions') && id) {
    const updated = { ...(store.objects.get(id) ?? { id, object: resource.replace(/s$/, '') }), ...params };
    store.objects.set(id, updated);
    return [200, updated];
  }
  if (method === 'DELETE' && resource === 'coupons' && id) {
    if (!store.objects.delete(id)) return notFound(`coupon: '${id}'`);
    return [200, { id, object: 'coupon', deleted: true }];
  }
  if (method === 'GET' && (resource === 'coupons' || resource === 'products') && id) {
    const object = store.objects.get(id);
    return object ? [200, object] : notFound(`${resource.replace(/s$/, '')}: '${id}'`);
  }
  if (method === 'GET' && resource === 'invoices' && id) return [200, paidInvoice(id)];
  if (method === 'GET' && resource === 'subscriptions' && id) return [200, subscription(store, id)];
  return notFound(route);
}

function listPrices(store: Store, params: Params): Answer {
  const keys = Object.entries(params)
    .filter(([name]) => name.startsWith('lookup_keys'))
    .map(([, value]) => value);
  const data = [...store.objects.values()].filter(
    (object) => object.object === 'price' && keys.includes(String(object.lookup_key)),
  );
  return [200, { object: 'list', data, has_more: false, url: '/v1/prices' }];
}

function createSession(store: Store): Answer {
  const sessionId = store.next('cs_test');
  return [200, { id: sessionId, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${sessionId}` }];
}

/**
 * An off-session PaymentIntent confirmed at once, as Stripe's test cards answer: `pm_card_chargeDeclined` is declined
 * (insufficient funds), `pm_card_authenticationRequired` needs 3-D Secure (the code), `pm_card_declinedAuthentication`
 * too (a card_declined whose decline code says it), `pm_card_processing` stays processing; any other card pays. As at
 * Stripe, a key asked again answers what it answered the first time.
 */
function createPaymentIntent(store: Store, params: Params, key: string | undefined): Answer {
  const remembered = key ? store.answers.get(key) : undefined;
  if (remembered) return remembered;
  const answer = newPaymentIntent(store, params);
  if (key) store.answers.set(key, answer);
  return answer;
}

function newPaymentIntent(store: Store, params: Params): Answer {
  const method = params.payment_method;
  const id = store.next('pi_test');
  const refusals: Record<string, { code: string; decline_code?: string; message: string }> = {
    pm_card_chargeDeclined: {
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Insufficient funds.',
    },
    pm_card_authenticationRequired: {
      code: 'authentication_required',
      message: 'This payment requires authentication.',
    },
    pm_card_declinedAuthentication: {
      code: 'card_declined',
      decline_code: 'authentication_required',
      message: 'Your card was declined. This transaction requires authentication.',
    },
  };
  const refusal = method ? refusals[method] : undefined;
  const intent = {
    id,
    object: 'payment_intent',
    status: refusal ? 'requires_payment_method' : method === 'pm_card_processing' ? 'processing' : 'succeeded',
    amount: Number(params.amount),
    amount_received: refusal ? 0 : Number(params.amount),
    currency: params.currency,
    created: 1_795_300_000,
    metadata: { topUpId: params['metadata[topUpId]'], orderId: params['metadata[orderId]'] },
    last_payment_error: refusal ?? null,
  };
  store.objects.set(id, intent);
  if (refusal) return [402, { error: { type: 'card_error', ...refusal, payment_intent: intent } }];
  return [200, intent];
}

const succeededSetupIntent = (id: string) => ({
  id,
  object: 'setup_intent',
  status: 'succeeded',
  customer: 'cus_saved',
  payment_method: { id: 'pm_card_visa', object: 'payment_method', card: { brand: 'visa', last4: '4242' } },
});

const PREFIXES: Record<string, string> = {
  products: 'prod',
  prices: 'price',
  coupons: 'coup',
  promotion_codes: 'promo',
  customers: 'cus',
};

/** A product, price, coupon or promotion code, kept under the id asked for or one made here. */
function createObject(store: Store, resource: string, params: Params): Answer {
  if (resource === 'promotion_codes' && [...store.objects.values()].some(clashesWith(store, params))) {
    return stripeError(
      400,
      'resource_already_exists',
      `An active promotion code with \`code: ${params.code}\` already exists.`,
    );
  }
  const objectId = params.id ?? store.next(PREFIXES[resource] ?? resource);
  if (store.objects.has(objectId)) return stripeError(400, 'resource_already_exists', `${objectId} exists`);
  const object = { ...params, id: objectId, object: resource.replace(/s$/, '') };
  store.objects.set(objectId, object);
  return [200, object];
}

/**
 * Stripe's rule: a code is unique among the active promotion codes, and a code is active only while its coupon exists.
 * The same code of ours made again (an idempotent retry at Stripe) is not a second code.
 */
const clashesWith = (store: Store, params: Params) => (object: StripeObject) =>
  object.object === 'promotion_code' &&
  String(object.code).toLowerCase() === String(params.code).toLowerCase() &&
  object.active !== 'false' &&
  store.objects.has(String(object['promotion[coupon]'] ?? object.coupon)) &&
  object['metadata[promoCodeId]'] !== params['metadata[promoCodeId]'];

const paidInvoice = (id: string) => ({
  id,
  object: 'invoice',
  hosted_invoice_url: `https://invoice.stripe.test/i/${id}`,
  amount_paid: 1125,
  currency: 'usd',
  total_discount_amounts: [{ amount: 125, discount: 'di_1' }],
  status_transitions: { paid_at: 1_795_300_000 },
});

const subscription = (store: Store, id: string) => ({
  id,
  object: 'subscription',
  cancel_at_period_end: store.objects.get(id)?.cancel_at_period_end === 'true',
  items: { object: 'list', data: [{ id: 'si_1', current_period_end: 1_795_300_000 + 30 * 86_400 }] },
});

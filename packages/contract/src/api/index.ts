import type { Endpoint } from '../endpoint.ts';
import { adminEndpoints } from './admin.ts';
import { customerEndpoints } from './customer.ts';
import { routes } from './routes.ts';
import { sandboxEndpoints } from './sandbox.ts';

export { routes };

/**
 * Every call of the product's API, by name (pages, better-auth's /api/auth/* and the payment providers' webhooks are
 * not calls of ours: route-matrix.ts lists them by hand). A route without its endpoint does not compile; api.test.ts
 * checks the reverse and that each endpoint has its route's address and access.
 */
export const endpoints = { ...customerEndpoints, ...adminEndpoints, ...sandboxEndpoints } satisfies {
  [Name in keyof typeof routes]: Endpoint;
};

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

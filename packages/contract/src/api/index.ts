import type { Endpoint } from '../endpoint.ts';
import { adminEndpoints } from './admin.ts';
import { customerEndpoints } from './customer.ts';
import { sandboxEndpoints } from './sandbox.ts';

export { routes } from './routes.ts';

/**
 * Every call of the product's API, by name (pages, better-auth's /api/auth/* and the payment providers' webhooks are
 * not calls of ours: route-matrix.ts lists them by hand).
 */
export const endpoints = { ...customerEndpoints, ...adminEndpoints, ...sandboxEndpoints } satisfies Record<
  string,
  Endpoint
>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

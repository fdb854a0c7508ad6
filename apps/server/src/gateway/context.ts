import type { FastifyBaseLogger } from 'fastify';
import type { AccountCache } from './accounts.ts';
import type { AuthFailureLimit } from './auth-failures.ts';
import type { GatewayConfig } from './config.ts';
import type { OpenConnections } from './connections.ts';
import type { Egress } from './egress.ts';
import type { Agents } from './upstream.ts';
import type { VerifiedCredentials } from './verified-credentials.ts';

/** What every part of one gateway shares: made once by startGateway, handed to the protocol modules. */
export interface GatewayContext {
  config: GatewayConfig;
  log: FastifyBaseLogger;
  accounts: AccountCache;
  verified: VerifiedCredentials;
  authFailures: AuthFailureLimit;
  egress: Egress;
  agents: Agents;
  open: OpenConnections;
}

import type { Socket } from 'node:net';
import type { ResidentialTargeting } from '@storefront/contract';
import type { GatewayContext } from './context.ts';
import { EgressRefused, type PinnedLookup } from './egress.ts';
import { OutboundError, openConnection } from './upstream.ts';

/** Checks the target against the egress rules; the lookup to connect with, or the refusal as an OutboundError. */
export async function checkTarget(context: GatewayContext, host: string): Promise<PinnedLookup | undefined> {
  try {
    return await context.egress.check(host, context.config.upstream === undefined);
  } catch (error) {
    if (error instanceof EgressRefused) {
      throw new OutboundError(error.message, error.cause === 'ENOTFOUND' ? 502 : 403, String(error.cause ?? ''));
    }
    throw error;
  }
}

/**
 * The connection onwards for a client's tunnel (target checked first), dropped if the client's connection closes
 * before it is made (no longer wanted). The listener goes once it is made: an abort builds an error with its stack.
 */
export async function openTunnel(
  context: GatewayContext,
  socket: Socket,
  target: { host: string; port: number; targeting: ResidentialTargeting | undefined },
) {
  const lookup = await checkTarget(context, target.host);
  const left = new AbortController();
  const abort = () => left.abort();
  if (socket.destroyed) abort();
  socket.once('close', abort);
  try {
    return await openConnection({ ...target, lookup, upstream: context.config.upstream, signal: left.signal });
  } finally {
    socket.off('close', abort);
  }
}

import {
  adminMessages,
  counted,
  type ProductId,
  parseUploadLines,
  proxyAddress,
  proxyLine,
} from '@storefront/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ipReplacementFlags, ipReplacementSubnets, proxyIps } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Branding } from '../../lib/branded-email.ts';
import { type Actor, recordAudit } from '../audit/record-audit.ts';
import { deliverWaitingOrders } from '../delivery/deliver-order.ts';
import { takenEndpoints } from './taken-endpoints.ts';
import { subnetOf } from './upload-ips.ts';

/**
 * POST /api/admin/ips/{pk1,isp}/subnets/swap: gives the subnet's IPs new endpoints in place, in one transaction. Each IP row
 * keeps its id and its order (in the order of the subnet's IPs, lowest first), so the customers holding them see the new
 * endpoints at once; burnt flags are cleared, and the IPs freed that way deliver waiting orders first come, first served.
 * Nothing is written when a line is bad, the count differs from the subnet's, or an endpoint is already in the pool.
 */
export async function swapSubnet({
  db,
  brand,
  actor,
  productId,
  subnet,
  newEndpoints,
}: {
  db: Db;
  brand: Branding;
  actor: Actor;
  productId: ProductId;
  subnet: string;
  newEndpoints: readonly string[];
}) {
  const parsed = parseUploadLines(newEndpoints, adminMessages.emptySwap);
  if ('error' in parsed) throw new AppError('BAD_REQUEST', parsed.error);
  const fresh = parsed.ips;
  const keys = fresh.map((entry) => proxyAddress(entry.ip, entry.port));
  if (new Set(keys).size !== keys.length) throw new AppError('BAD_REQUEST', adminMessages.duplicateEndpoints);

  return db.transaction(async (tx) => {
    const current = await tx
      .select()
      .from(proxyIps)
      .where(and(eq(proxyIps.productId, productId), eq(proxyIps.subnet, subnet)))
      .orderBy(sql`${proxyIps.ip}::inet`, asc(proxyIps.port))
      .for('update');
    if (current.length === 0) throw new AppError('NOT_FOUND', adminMessages.unknownSubnet);
    if (fresh.length !== current.length) {
      throw new AppError('BAD_REQUEST', adminMessages.swapCountMismatch(fresh.length, current.length));
    }
    const ids = current.map((row) => row.id);
    const taken = await takenEndpoints({ tx, endpoints: fresh, exceptIds: ids });
    if (taken.length > 0) throw new AppError('CONFLICT', adminMessages.endpointsTaken(taken));

    // Rows are replaced with their own ids: the unique ip:port index is then checked once, on the new endpoints.
    const burntCleared = current.filter((row) => row.needRotated).length;
    await tx.delete(proxyIps).where(inArray(proxyIps.id, ids));
    const replaced = current.map((row, index) => {
      const entry = fresh[index] ?? fresh[0];
      if (!entry) throw new Error('swap: no endpoint for a row');
      return {
        id: row.id,
        productId: row.productId,
        ip: entry.ip,
        port: entry.port,
        username: entry.username,
        password: entry.password,
        endpoint: proxyLine(proxyAddress(entry.ip, entry.port), entry.username, entry.password),
        subnet: subnetOf(entry.ip),
        assignedOrderId: row.assignedOrderId,
        needRotated: false,
        createdAt: row.createdAt,
      };
    });
    for (let start = 0; start < replaced.length; start += 1000) {
      await tx.insert(proxyIps).values(replaced.slice(start, start + 1000));
    }
    // The customers' replacements counted against the subnet were about its old addresses: it starts afresh.
    await tx
      .delete(ipReplacementSubnets)
      .where(and(eq(ipReplacementSubnets.productId, productId), eq(ipReplacementSubnets.subnet, subnet)));
    await tx
      .delete(ipReplacementFlags)
      .where(and(eq(ipReplacementFlags.productId, productId), eq(ipReplacementFlags.subnet, subnet)));
    const delivered = burntCleared > 0 ? await deliverWaitingOrders({ tx, brand, productId }) : 0;
    const newSubnets = [...new Set(replaced.map((row) => row.subnet))];
    await recordAudit({
      tx,
      actor,
      action: 'subnet.swap',
      summary: `${current.length} IPs of ${subnet} swapped${newSubnets.some((entry) => entry !== subnet) ? ` (now ${newSubnets.join(', ')})` : ''}; ${burntCleared} burnt cleared${delivered > 0 ? `; ${counted(delivered, 'waiting order', 'waiting orders')} delivered` : ''}`,
      details: { productId, subnet, newSubnets, swapped: current.length, burntCleared, delivered },
    });
    return {
      message: `${adminMessages.swapped}: ${adminMessages.swapDetail(current.length, subnet, delivered)}`,
      swapped: current.length,
      delivered,
    };
  });
}

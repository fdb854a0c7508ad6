import { adminMessages, type FeatureFlag } from '@storefront/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { featureFlags } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { type Actor, recordAudit } from '../audit/record-audit.ts';
import { listFeatures } from './list-features.ts';

/**
 * POST /api/admin/features: the whole list in (spec section 4 'Feature toggle'), the whole list out. Every name must be a
 * known feature; the flags that change are written, with one audit entry, in one transaction.
 */
export async function updateFeatures({
  db,
  actor,
  features,
}: {
  db: Db;
  actor: Actor;
  features: FeatureFlag[];
}): Promise<FeatureFlag[]> {
  return db.transaction(async (tx) => {
    const current = new Map(
      (await tx.select().from(featureFlags).for('update')).map((row) => [row.featureName, row.isEnabled]),
    );
    const unknown = features.find((feature) => !current.has(feature.featureName));
    if (unknown) throw new AppError('BAD_REQUEST', adminMessages.unknownFeature(unknown.featureName));
    const changed = features.filter((feature) => current.get(feature.featureName) !== feature.isEnabled);
    for (const feature of changed) {
      await tx
        .update(featureFlags)
        .set({ isEnabled: feature.isEnabled, updatedAt: new Date() })
        .where(eq(featureFlags.featureName, feature.featureName));
    }
    if (changed.length > 0) {
      await recordAudit({
        tx,
        actor,
        action: 'feature.toggle',
        summary: changed.map((feature) => `${feature.featureName} ${feature.isEnabled ? 'on' : 'off'}`).join(', '),
        details: { changed },
      });
    }
    return listFeatures({ db: tx });
  });
}

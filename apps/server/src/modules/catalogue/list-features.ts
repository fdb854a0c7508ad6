import type { FeatureFlag } from '@storefront/contract';
import { PRODUCT_IDS } from '@storefront/contract';
import type { Db, Tx } from '../../db/client.ts';
import { featureFlags } from '../../db/schema.ts';

/** The feature flags in catalogue order (the product order of the spec), then any others by name. */
export async function listFeatures({ db }: { db: Db | Tx }): Promise<FeatureFlag[]> {
  const rows = await db
    .select({ featureName: featureFlags.featureName, isEnabled: featureFlags.isEnabled })
    .from(featureFlags);
  const rank = (name: string) => {
    const index = (PRODUCT_IDS as readonly string[]).indexOf(name);
    return index === -1 ? PRODUCT_IDS.length : index;
  };
  return rows.sort((a, b) => rank(a.featureName) - rank(b.featureName) || a.featureName.localeCompare(b.featureName));
}

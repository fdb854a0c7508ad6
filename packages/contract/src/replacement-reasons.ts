/**
 * Why a customer replaces an IP, and the words the pages show for it: a module of its own, as both the Proxies page
 * and the console use it, and the pages' shared file should not carry the rest of replacements.ts.
 */
export const REPLACEMENT_REASONS = ['blocked', 'slow', 'no_connect', 'other'] as const;
export type ReplacementReason = (typeof REPLACEMENT_REASONS)[number];

export const REPLACEMENT_REASON_LABELS: Record<ReplacementReason, string> = {
  blocked: 'Blocked by a target',
  slow: 'Slow',
  no_connect: 'Does not connect',
  other: 'Other',
};

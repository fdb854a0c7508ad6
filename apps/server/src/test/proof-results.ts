import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/**
 * A proof test's figures, for the table `npm run proof` prints (scripts/proof.ts): appended as one JSON line to
 * `$PROOF_RESULTS_DIR/results.jsonl` when that is set, and nothing otherwise (a plain test run).
 */
export function recordProof(
  name: string,
  figures: Record<string, string | number>,
  /** Where it ran; a test's database by default. */
  database = process.env.TEST_DB === 'postgres' ? 'PostgreSQL' : 'PGlite',
): void {
  const dir = process.env.PROOF_RESULTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(path.join(dir, 'results.jsonl'), `${JSON.stringify({ name, database, figures })}\n`);
}

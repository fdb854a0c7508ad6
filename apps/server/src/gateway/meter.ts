import { BYTES_PER_KB } from '@storefront/contract';
import type { GatewayAccount } from './accounts.ts';
import type { SqlClient } from './sql.ts';

/**
 * Bytes carried per account, written in batches: each write adds whole KB to residential_accounts.used_kb and to the
 * day's row of residential_usage_daily in one transaction, by increments, so any number of gateways share one database
 * without losing counts. Bytes short of a whole KB wait for the next batch; the last batch (shutdown) rounds them up, so a
 * gateway never loses a byte and overcounts at most one KB per account when it stops.
 */
export class Meter {
  readonly #sql: SqlClient;
  readonly #pending = new Map<string, number>();
  readonly #writing = new Map<string, number>();
  #flushing: Promise<void> | undefined;
  /**
   * Every byte handed to the meter since this gateway started, by direction as the customer sees it (upload: read from
   * the client; download: written to it). Two additions a chunk; read by the metrics at scrape time.
   */
  readonly carried = { upload: 0, download: 0 };

  constructor(sql: SqlClient) {
    this.#sql = sql;
  }

  /** Bills new bytes of a connection to its account: `upload` read from the client, `download` written to it. */
  add(account: GatewayAccount, upload: number, download: number) {
    const bytes = upload + download;
    this.carried.upload += upload;
    this.carried.download += download;
    this.#pending.set(account.userId, (this.#pending.get(account.userId) ?? 0) + bytes);
    account.localBytes += bytes;
  }

  /** Bytes of this user metered here and not yet in the database. */
  unwritten(userId: string): number {
    return (this.#pending.get(userId) ?? 0) + (this.#writing.get(userId) ?? 0);
  }

  /** Writes what is pending; `final` rounds the last partial KB up. One write at a time; a failed write is kept for the next. */
  async flush({ final = false }: { final?: boolean } = {}): Promise<void> {
    while (this.#flushing) await this.#flushing;
    const batch: { userId: string; kb: number }[] = [];
    for (const [userId, bytes] of this.#pending) {
      const kb = final ? Math.ceil(bytes / BYTES_PER_KB) : Math.floor(bytes / BYTES_PER_KB);
      if (kb === 0) continue;
      const taken = Math.min(bytes, kb * BYTES_PER_KB);
      batch.push({ userId, kb });
      this.#writing.set(userId, taken);
      if (bytes - taken > 0) this.#pending.set(userId, bytes - taken);
      else this.#pending.delete(userId);
    }
    if (batch.length === 0) return;
    this.#flushing = this.#write(batch)
      .catch((error: unknown) => {
        for (const { userId } of batch) {
          this.#pending.set(userId, (this.#pending.get(userId) ?? 0) + (this.#writing.get(userId) ?? 0));
        }
        throw error;
      })
      .finally(() => {
        this.#writing.clear();
        this.#flushing = undefined;
      });
    await this.#flushing;
  }

  /**
   * One statement: the day rows are added only for the accounts the update found, so bytes of an account deleted
   * meanwhile (nothing left to bill) are dropped instead of failing the whole batch on the day table's foreign key,
   * which kept every account's bytes unwritten for as long as the gateway ran.
   */
  async #write(batch: { userId: string; kb: number }[]) {
    await this.#sql.query(
      `with batch(user_id, kb) as (select * from unnest($1::text[], $2::bigint[])),
      updated as (
        update residential_accounts ra set used_kb = ra.used_kb + batch.kb, updated_at = now()
        from batch
        where ra.user_id = batch.user_id
        returning batch.user_id, batch.kb
      )
      insert into residential_usage_daily (user_id, day, used_kb)
      select user_id, (now() at time zone 'utc')::date, kb from updated
      on conflict (user_id, day) do update set used_kb = residential_usage_daily.used_kb + excluded.used_kb`,
      [batch.map(({ userId }) => userId), batch.map(({ kb }) => kb)],
    );
  }
}

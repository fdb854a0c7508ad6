import { BYTES_PER_KB } from '@storefront/contract';
import type { GatewayAccount } from './accounts.ts';
import type { SqlClient } from './sql.ts';

/** What this gateway holds of an account's data (residential_gateway_leases): what it may carry before asking again. */
interface Lease {
  /** KB this gateway may carry beyond what it has written, as the database holds it (a flush takes its KB off). */
  kb: number;
  /** The last reservation was given less than it asked for: the account's data is all spoken for. */
  short: boolean;
  reservedAt: number;
  /** Bytes were metered against it since the last flush; a lease without is given back at the flush. */
  active: boolean;
  reserving: Promise<boolean | undefined> | undefined;
  /** When a reservation last failed (the database away). */
  failedAt: number;
}

/** A reservation that failed is not tried again for this long: every chunk would otherwise ask. */
const RESERVE_RETRY_MS = 1000;

export interface MeterOptions {
  sql: SqlClient;
  /** This process's own id in residential_gateway_leases. */
  gatewayId: string;
  /** KB a reservation asks for beyond what is carried and unwritten. */
  sliceKb: number;
  /** How long a lease lives without a flush renewing it: how long a gateway that died keeps data from the others. */
  leaseMs: number;
  /** How long a short answer stands: a connection at the end of its lease is cut without asking again meanwhile. */
  shortForMs: number;
  /** A reservation failed (logged by the caller as it likes). */
  onError: (error: unknown) => void;
}

/**
 * Bytes carried per account, written in batches: each write adds whole KB to residential_accounts.used_kb and to the
 * day's row of residential_usage_daily in one transaction, by increments, so any number of gateways share one database
 * without losing counts. Bytes short of a whole KB wait for the next batch; the last batch (shutdown) rounds them up, so a
 * gateway never loses a byte and overcounts at most one KB per account when it stops.
 *
 * What an account may carry is reserved in slices (leases): a gateway carries an account's data only out of its own
 * lease, and a lease is only given out of what the account has left after used_kb and the other gateways' leases, so
 * gateways behind one balancer together never carry more than the account has, give or take what they carry while a
 * reservation is under way (docs/decisions/2026-11-29-gateway-leases.md).
 */
export class Meter {
  readonly #sql: SqlClient;
  readonly #options: MeterOptions;
  readonly #pending = new Map<string, number>();
  readonly #writing = new Map<string, number>();
  readonly #leases = new Map<string, Lease>();
  /** The database work under way: a flush and a reservation never overlap, so a lease is read and written in order. */
  #busy: Promise<unknown> = Promise.resolve();
  /**
   * Every byte handed to the meter since this gateway started, by direction as the customer sees it (upload: read from
   * the client; download: written to it). Two additions a chunk; read by the metrics at scrape time.
   */
  readonly carried = { upload: 0, download: 0 };

  constructor(options: MeterOptions) {
    this.#sql = options.sql;
    this.#options = options;
  }

  /** Bills new bytes of a connection to its account: `upload` read from the client, `download` written to it. */
  add(account: GatewayAccount, upload: number, download: number) {
    const bytes = upload + download;
    this.carried.upload += upload;
    this.carried.download += download;
    this.#pending.set(account.userId, (this.#pending.get(account.userId) ?? 0) + bytes);
    account.localBytes += bytes;
    const lease = this.#leases.get(account.userId);
    if (lease) lease.active = true;
  }

  /** Bytes of this user metered here and not yet in the database. */
  unwritten(userId: string): number {
    return (this.#pending.get(userId) ?? 0) + (this.#writing.get(userId) ?? 0);
  }

  /** Bytes this gateway may still carry for the user out of its lease (negative once past it). */
  leaseLeft(userId: string): number {
    return (this.#leases.get(userId)?.kb ?? 0) * BYTES_PER_KB - this.unwritten(userId);
  }

  /** Whether the lease is low enough to ask for the next slice (half a slice left, so it comes before it is needed). */
  wantsSlice(userId: string): boolean {
    return this.leaseLeft(userId) <= (this.#options.sliceKb * BYTES_PER_KB) / 2;
  }

  /** Whether the last reservation, recently, found nothing more: the account's data is spoken for, no need to ask. */
  spokenFor(userId: string): boolean {
    const lease = this.#leases.get(userId);
    return lease?.short === true && Date.now() - lease.reservedAt < this.#options.shortForMs;
  }

  /** Whether a reservation for the user is under way. */
  reserving(userId: string): boolean {
    return this.#leases.get(userId)?.reserving !== undefined;
  }

  /**
   * Raises the user's lease to what is carried and unwritten plus a slice, as far as the account allows; answers whether
   * the lease has room now, or undefined when the database could not be asked (it is not asked again for a second).
   * Calls at once share one reservation.
   */
  reserve(userId: string): Promise<boolean | undefined> {
    const lease = this.#leases.get(userId) ?? this.#newLease(userId);
    if (Date.now() - lease.failedAt < RESERVE_RETRY_MS) return Promise.resolve(undefined);
    lease.reserving ??= this.#serial(async () => {
      const wantKb = Math.ceil(this.unwritten(userId) / BYTES_PER_KB) + this.#options.sliceKb;
      const { rows } = await this.#sql.query("select reserve_residential_data($1, '', $2, $3, $4) as kb", [
        userId,
        this.#options.gatewayId,
        wantKb,
        this.#options.leaseMs,
      ]);
      lease.kb = Number(rows[0]?.kb ?? 0);
      lease.short = lease.kb < wantKb;
      lease.reservedAt = Date.now();
      this.#leases.set(userId, lease);
      return this.leaseLeft(userId) > 0;
    })
      .catch((error: unknown) => {
        lease.failedAt = Date.now();
        this.#options.onError(error);
        return undefined;
      })
      .finally(() => {
        lease.reserving = undefined;
      });
    return lease.reserving;
  }

  #newLease(userId: string): Lease {
    const lease: Lease = { kb: 0, short: false, reservedAt: 0, active: false, reserving: undefined, failedAt: 0 };
    this.#leases.set(userId, lease);
    return lease;
  }

  /** Runs database work after what is under way; a failure is the caller's, not the next one's. */
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#busy.then(work, work);
    this.#busy = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes what is pending, takes it off the leases and renews them; gives back the leases nothing was carried on since
   * the last flush (all of them when `final`, which also rounds the last partial KB up). A failed write is kept for the
   * next.
   */
  flush({ final = false }: { final?: boolean } = {}): Promise<void> {
    return this.#serial(() => this.#flush(final));
  }

  async #flush(final: boolean): Promise<void> {
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
    const released = [...this.#leases]
      .filter(([, lease]) => final || (!lease.active && lease.reserving === undefined))
      .map(([userId]) => userId);
    if (batch.length === 0 && this.#leases.size === 0) return;
    // In one order whatever the gateway, so that two gateways' batches lock the same accounts one after the other.
    batch.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
    try {
      await this.#write(batch, released, final);
    } catch (error) {
      for (const { userId } of batch) {
        this.#pending.set(userId, (this.#pending.get(userId) ?? 0) + (this.#writing.get(userId) ?? 0));
      }
      throw error;
    } finally {
      this.#writing.clear();
    }
    for (const userId of released) this.#leases.delete(userId);
    for (const { userId, kb } of batch) {
      const lease = this.#leases.get(userId);
      if (lease) lease.kb = Math.max(0, lease.kb - kb);
    }
    for (const lease of this.#leases.values()) lease.active = false;
  }

  /**
   * One statement: the day rows are added only for the accounts the update found, so bytes of an account deleted
   * meanwhile (nothing left to bill) are dropped instead of failing the whole batch on the day table's foreign key,
   * which kept every account's bytes unwritten for as long as the gateway ran. The leases lose what was written in the
   * same transaction, so a reservation never sees the bytes both used and still leased.
   */
  async #write(batch: { userId: string; kb: number }[], released: string[], final: boolean) {
    await this.#sql.query(
      `with batch(user_id, kb) as (select * from unnest($1::text[], $2::bigint[])),
      updated as (
        update residential_accounts ra set used_kb = ra.used_kb + batch.kb, updated_at = now()
        from batch
        where ra.user_id = batch.user_id
        returning batch.user_id, batch.kb
      ),
      daily as (
        insert into residential_usage_daily (user_id, day, used_kb)
        select user_id, (now() at time zone 'utc')::date, kb from updated
        on conflict (user_id, day) do update set used_kb = residential_usage_daily.used_kb + excluded.used_kb
      ),
      released as (
        delete from residential_gateway_leases l
        where l.gateway_id = $3 and ($5 or l.user_id = any($4::text[]))
      )
      update residential_gateway_leases l
      set kb = greatest(0, l.kb - coalesce((select batch.kb from batch where batch.user_id = l.user_id), 0)),
        expires_at = now() + $6 * interval '1 millisecond'
      where l.gateway_id = $3 and not $5 and l.user_id <> all($4::text[])`,
      [
        batch.map(({ userId }) => userId),
        batch.map(({ kb }) => kb),
        this.#options.gatewayId,
        released,
        final,
        this.#options.leaseMs,
      ],
    );
  }
}

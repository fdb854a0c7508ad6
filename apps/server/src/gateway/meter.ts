import { BYTES_PER_KB } from '@storefront/contract/residential.ts';
import type { GatewayAccount } from './accounts.ts';
import type { SqlClient } from './sql.ts';

/** What this gateway holds of an account's data (residential_gateway_leases): what it may carry before asking again. */
interface Lease {
  /** KB this gateway may carry beyond what it has written, as the database holds it (a flush takes its KB off). */
  kb: number;
  /** The last reservation was given less than it asked for: the account's data is all spoken for. */
  short: boolean;
  /** What the last reservation was held back by: the account's data, a proxy user's allowance or its pause. */
  limitedBy: LimitedBy;
  reservedAt: number;
  /** Bytes were metered against it since the last flush; a lease without is given back at the flush. */
  active: boolean;
  reserving: Promise<boolean | undefined> | undefined;
  /** When a reservation last failed (the database away). */
  failedAt: number;
}

/** Bytes each way and connections of one user, country and domain since the last write. */
interface UsageBucket {
  upload: number;
  download: number;
  connections: number;
}

export type LimitedBy = 'account' | 'allowance' | 'paused';

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
  /** Usage analytics since the last write, by meter key, country and domain (`${meterKey}\t${usage key}`). */
  #usage = new Map<string, UsageBucket>();
  /** When a write last renewed every lease. */
  #renewedAt = 0;
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

  /** Bills new bytes of a connection to its account's user: `upload` read from the client, `download` written to it. */
  add(account: GatewayAccount, upload: number, download: number, usage = '') {
    const bytes = upload + download;
    const key = account.meterKey;
    this.carried.upload += upload;
    this.carried.download += download;
    this.#pending.set(key, (this.#pending.get(key) ?? 0) + bytes);
    account.localBytes += bytes;
    const lease = this.#leases.get(key);
    if (lease) lease.active = true;
    const bucket = this.#bucket(key, usage);
    bucket.upload += upload;
    bucket.download += download;
  }

  /** Counts a connection (a tunnel, or a plain-HTTP request) of the user in its usage analytics. */
  count(account: GatewayAccount, usage: string): void {
    this.#bucket(account.meterKey, usage).connections++;
  }

  #bucket(key: string, usage: string): UsageBucket {
    const id = `${key}\t${usage}`;
    let bucket = this.#usage.get(id);
    if (!bucket) {
      bucket = { upload: 0, download: 0, connections: 0 };
      this.#usage.set(id, bucket);
    }
    return bucket;
  }

  /** Bytes of this user (a meter key: an account's main user or proxy user) metered here and not yet written. */
  unwritten(key: string): number {
    return (this.#pending.get(key) ?? 0) + (this.#writing.get(key) ?? 0);
  }

  /**
   * Bytes this gateway may still carry for the user out of its lease (negative once past it). A lease neither reserved
   * nor renewed by a write for its lifetime may have been given to another gateway: it counts as none.
   */
  leaseLeft(key: string): number {
    const lease = this.#leases.get(key);
    const live =
      lease !== undefined && Date.now() - Math.max(lease.reservedAt, this.#renewedAt) < this.#options.leaseMs;
    return (live ? lease.kb : 0) * BYTES_PER_KB - this.unwritten(key);
  }

  /** Whether the lease is low enough to ask for the next slice (half a slice left, so it comes before it is needed). */
  wantsSlice(key: string): boolean {
    return this.leaseLeft(key) <= (this.#options.sliceKb * BYTES_PER_KB) / 2;
  }

  /** Whether the last reservation, recently, found nothing more: the user's data is spoken for, no need to ask. */
  spokenFor(key: string): boolean {
    const lease = this.#leases.get(key);
    return lease?.short === true && Date.now() - lease.reservedAt < this.#options.shortForMs;
  }

  /** What the user's last reservation was held back by. */
  limitedBy(key: string): LimitedBy {
    return this.#leases.get(key)?.limitedBy ?? 'account';
  }

  /** Whether a reservation for the user is under way. */
  reserving(key: string): boolean {
    return this.#leases.get(key)?.reserving !== undefined;
  }

  /**
   * Raises the user's lease to what is carried and unwritten plus a slice, as far as the account allows; answers whether
   * the lease has room now, or undefined when the database could not be asked (it is not asked again for a second).
   * Calls at once share one reservation.
   */
  reserve(key: string): Promise<boolean | undefined> {
    const lease = this.#leases.get(key) ?? this.#newLease(key);
    if (Date.now() - lease.failedAt < RESERVE_RETRY_MS) return Promise.resolve(undefined);
    lease.reserving ??= this.#serial(async () => {
      const wantKb = Math.ceil(this.unwritten(key) / BYTES_PER_KB) + this.#options.sliceKb;
      const { userId, proxyUserId } = idsOf(key);
      const { rows } = await this.#sql.query(
        'select granted_kb as kb, limited_by from reserve_residential_data($1, $2, $3, $4, $5)',
        [userId, proxyUserId, this.#options.gatewayId, wantKb, this.#options.leaseMs],
      );
      lease.kb = Number(rows[0]?.kb ?? 0);
      lease.short = lease.kb < wantKb;
      const limitedBy = rows[0]?.limited_by;
      lease.limitedBy = limitedBy === 'allowance' || limitedBy === 'paused' ? limitedBy : 'account';
      lease.reservedAt = Date.now();
      this.#leases.set(key, lease);
      return this.leaseLeft(key) > 0;
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

  #newLease(key: string): Lease {
    const lease: Lease = {
      kb: 0,
      short: false,
      limitedBy: 'account',
      reservedAt: 0,
      active: false,
      reserving: undefined,
      failedAt: 0,
    };
    this.#leases.set(key, lease);
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
    const batch: { key: string; kb: number }[] = [];
    for (const [key, bytes] of this.#pending) {
      const kb = final ? Math.ceil(bytes / BYTES_PER_KB) : Math.floor(bytes / BYTES_PER_KB);
      if (kb === 0) continue;
      const taken = Math.min(bytes, kb * BYTES_PER_KB);
      batch.push({ key, kb });
      this.#writing.set(key, taken);
      if (bytes - taken > 0) this.#pending.set(key, bytes - taken);
      else this.#pending.delete(key);
    }
    const released = [...this.#leases]
      .filter(([, lease]) => final || (!lease.active && lease.reserving === undefined))
      .map(([key]) => key);
    const usage = this.#usage;
    this.#usage = new Map();
    // Bytes carried while the write is on its way mark their leases active again, for the next flush.
    const active = [...this.#leases.values()].filter((lease) => lease.active);
    for (const lease of active) lease.active = false;
    const startedAt = Date.now();
    if (batch.length === 0 && this.#leases.size === 0 && usage.size === 0) return;
    try {
      await this.#write(batch, released, final, usage);
    } catch (error) {
      for (const { key } of batch) {
        this.#pending.set(key, (this.#pending.get(key) ?? 0) + (this.#writing.get(key) ?? 0));
      }
      for (const lease of active) lease.active = true;
      for (const [id, bucket] of usage) {
        const now = this.#usage.get(id);
        if (now) {
          now.upload += bucket.upload;
          now.download += bucket.download;
          now.connections += bucket.connections;
        } else this.#usage.set(id, bucket);
      }
      throw error;
    } finally {
      this.#writing.clear();
    }
    for (const key of released) this.#leases.delete(key);
    for (const { key, kb } of batch) {
      const lease = this.#leases.get(key);
      if (lease) lease.kb = Math.max(0, lease.kb - kb);
    }
    this.#renewedAt = startedAt;
  }

  /**
   * One statement: the accounts' used_kb and day rows, the proxy users' use (all of it, and this period's for a
   * monthly allowance), the usage analytics (by the hour, and by the day with domains: every byte, in the hour of the
   * write, so that they add up to what was billed), and the leases, which lose what was written in the same transaction so that a reservation never
   * sees the bytes both used and still leased. The day rows are added only for the accounts the update found, so bytes
   * of an account deleted meanwhile (nothing left to bill) are dropped instead of failing the whole batch on the day
   * table's foreign key, which kept every account's bytes unwritten for as long as the gateway ran.
   */
  async #write(
    batch: { key: string; kb: number }[],
    released: string[],
    final: boolean,
    usage: Map<string, UsageBucket>,
  ) {
    const ids = batch.map(({ key }) => idsOf(key));
    const releasedIds = released.map(idsOf);
    const rows = [...usage].map(([id, bucket]) => {
      const [key = '', country = '', domain = ''] = id.split('\t');
      return { ...idsOf(key), country, domain, ...bucket };
    });
    await this.#sql.query(
      `with batch(user_id, proxy_user_id, kb) as (select * from unnest($1::text[], $2::text[], $3::bigint[])),
      per_account as (select user_id, sum(kb)::bigint as kb from batch group by user_id),
      updated as (
        update residential_accounts ra set used_kb = ra.used_kb + per_account.kb, updated_at = now()
        from per_account
        where ra.user_id = per_account.user_id
        returning per_account.user_id, per_account.kb
      ),
      daily as (
        insert into residential_usage_daily (user_id, day, used_kb)
        select user_id, (now() at time zone 'utc')::date, kb from updated
        on conflict (user_id, day) do update set used_kb = residential_usage_daily.used_kb + excluded.used_kb
      ),
      proxied as (
        update proxy_users pu set
          used_kb = pu.used_kb + batch.kb,
          period_used_kb = case
            when pu.allowance = 'monthly' and pu.period_start is distinct from proxy_user_period_start(pu.reset_day, now())
              then batch.kb
            else pu.period_used_kb + batch.kb
          end,
          period_start = case
            when pu.allowance = 'monthly' then proxy_user_period_start(pu.reset_day, now())
            else pu.period_start
          end,
          updated_at = now()
        from batch
        where batch.proxy_user_id <> '' and pu.id = batch.proxy_user_id and pu.user_id = batch.user_id
      ),
      usage(user_id, proxy_user_id, country, domain, upload, download, connections) as (
        select u.* from unnest($9::text[], $10::text[], $11::text[], $12::text[], $13::bigint[], $14::bigint[],
          $15::bigint[]) as u(user_id, proxy_user_id, country, domain, upload, download, connections)
        join residential_accounts ra on ra.user_id = u.user_id
      ),
      hourly as (
        insert into residential_usage_hourly as h
          (user_id, hour, proxy_user_id, country, upload_bytes, download_bytes, connections)
        select user_id, date_trunc('hour', now()), proxy_user_id, country, sum(upload), sum(download), sum(connections)
        from usage group by user_id, proxy_user_id, country
        on conflict (user_id, hour, proxy_user_id, country) do update set
          upload_bytes = h.upload_bytes + excluded.upload_bytes,
          download_bytes = h.download_bytes + excluded.download_bytes,
          connections = h.connections + excluded.connections
      ),
      domains as (
        insert into residential_usage_domains as d
          (user_id, day, proxy_user_id, country, domain, upload_bytes, download_bytes, connections)
        select user_id, (now() at time zone 'utc')::date, proxy_user_id, country, domain, upload, download, connections
        from usage
        on conflict (user_id, day, proxy_user_id, country, domain) do update set
          upload_bytes = d.upload_bytes + excluded.upload_bytes,
          download_bytes = d.download_bytes + excluded.download_bytes,
          connections = d.connections + excluded.connections
      ),
      released(user_id, proxy_user_id) as (select * from unnest($5::text[], $6::text[])),
      given_back as (
        delete from residential_gateway_leases l
        where l.gateway_id = $4
          and ($7 or exists (
            select 1 from released r where r.user_id = l.user_id and r.proxy_user_id = l.proxy_user_id
          ))
      )
      update residential_gateway_leases l
      set kb = greatest(0, l.kb - coalesce((
          select batch.kb from batch where batch.user_id = l.user_id and batch.proxy_user_id = l.proxy_user_id
        ), 0)),
        expires_at = now() + $8 * interval '1 millisecond'
      where l.gateway_id = $4 and not $7
        and not exists (select 1 from released r where r.user_id = l.user_id and r.proxy_user_id = l.proxy_user_id)`,
      [
        ids.map(({ userId }) => userId),
        ids.map(({ proxyUserId }) => proxyUserId),
        batch.map(({ kb }) => kb),
        this.#options.gatewayId,
        releasedIds.map(({ userId }) => userId),
        releasedIds.map(({ proxyUserId }) => proxyUserId),
        final,
        this.#options.leaseMs,
        rows.map((row) => row.userId),
        rows.map((row) => row.proxyUserId),
        rows.map((row) => row.country),
        rows.map((row) => row.domain),
        rows.map((row) => row.upload),
        rows.map((row) => row.download),
        rows.map((row) => row.connections),
      ],
    );
  }
}

/** The account and the proxy user ('' for the main user) of a meter key (accounts.ts, meterKeyOf). */
function idsOf(key: string): { userId: string; proxyUserId: string } {
  const space = key.indexOf(' ');
  return space < 0
    ? { userId: key, proxyUserId: '' }
    : { userId: key.slice(0, space), proxyUserId: key.slice(space + 1) };
}

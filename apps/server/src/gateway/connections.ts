import type { Socket } from 'node:net';
import type { ResidentialTargeting } from '@storefront/contract';
import type { FastifyBaseLogger } from 'fastify';
import { socketIp } from '../lib/ip-address.ts';
import { type AccountCache, allowedFrom, type GatewayAccount, mustStop, remainingBytes } from './accounts.ts';
import { sourceKey } from './auth-failures.ts';
import type { Meter } from './meter.ts';

/** One client connection to the gateway and the account its traffic is billed to. */
export interface Connection {
  socket: Socket;
  /** The customer's address: the socket's, or the one the load balancer's PROXY header named. */
  clientIp: string;
  /** What failed authentications are counted under (the address, or its IPv6 /64). */
  source: string;
  account: GatewayAccount | undefined;
  /** How the account was proven: its password, or the address being one of its authorised IPs. */
  via: 'password' | 'ip' | undefined;
  /** The account's password version when this connection authenticated: a newer one cuts it. */
  passwordVersion: number;
  targeting: ResidentialTargeting | undefined;
  /** The Proxy-Authorization that authenticated the last request: the same header again is not checked again. */
  authorization: string | undefined;
  /** Bytes read from the client already handed to the meter (or not the customer's: a PROXY header). */
  meteredRead: number;
  /** Bytes written to the client already handed to the meter. */
  meteredWritten: number;
  /** The source this connection is counted under for the limit of open connections (once known). */
  countedAs: string | undefined;
  /** The user (meter key) this connection is counted under for a proxy user's limit of connections (once known). */
  countedUser: string | undefined;
  /** What its bytes count under in the usage analytics: the targeted country and the target's domain (usage.ts). */
  usage: string;
}

export const connectionKey = Symbol('gateway connection');
export type GatewaySocket = Socket & { [connectionKey]?: Connection };

/** The gateway's connection of a socket the HTTP server hands over, if it is one. */
export const connectionOf = (socket: Socket): Connection | undefined => (socket as GatewaySocket)[connectionKey];

export function newConnection(socket: Socket): Connection {
  const clientIp = socketIp(socket.remoteAddress) ?? 'unknown';
  return {
    socket,
    clientIp,
    source: sourceKey(clientIp),
    account: undefined,
    via: undefined,
    passwordVersion: 0,
    targeting: undefined,
    authorization: undefined,
    meteredRead: 0,
    meteredWritten: 0,
    countedAs: undefined,
    countedUser: undefined,
    usage: '',
  };
}

/** Whether the connection's account may no longer carry it (as last read). */
export const revoked = ({ account, via, passwordVersion, clientIp }: Connection): boolean =>
  account !== undefined &&
  (mustStop(account) ||
    (via === 'password' && (passwordVersion !== account.passwordVersion || !allowedFrom(account, clientIp))) ||
    (via === 'ip' && !account.authorizedIps.includes(clientIp)));

/** A failing re-read of accounts (database down) is logged at most this often. */
const REFRESH_ERROR_LOG_MS = 30_000;

/**
 * The open connections: counted per source address against the limit of open connections, metered from their sockets'
 * counters into their accounts, and cut when their account may no longer carry them.
 */
export class OpenConnections {
  readonly #all = new Set<Connection>();
  /** Open connections by source address (an IPv6 /64). */
  readonly #perSource = new Map<string, number>();
  /** Open connections by the user they are billed to (a meter key), for proxy users' limits. */
  readonly #perUser = new Map<string, number>();
  readonly #maxPerSource: number;
  readonly #meter: Meter;
  readonly #accounts: AccountCache;
  readonly #log: FastifyBaseLogger;
  #refreshErrorLoggedAt = Number.NEGATIVE_INFINITY;
  /** The re-read of open connections' accounts under way, if any. */
  refreshing: Promise<void> | undefined;
  /** Connections refused for being one too many from their source. */
  refusedPerIpLimit = 0;

  constructor(options: { maxPerSource: number; meter: Meter; accounts: AccountCache; log: FastifyBaseLogger }) {
    this.#maxPerSource = options.maxPerSource;
    this.#meter = options.meter;
    this.#accounts = options.accounts;
    this.#log = options.log;
  }

  get size(): number {
    return this.#all.size;
  }

  [Symbol.iterator](): IterableIterator<Connection> {
    return this.#all.values();
  }

  /** Tracks the connection until it closes, then meters it a last time and releases its count. */
  add(connection: Connection): void {
    this.#all.add(connection);
    connection.socket.once('close', () => {
      this.meter(connection);
      this.#all.delete(connection);
      this.#release(connection);
      this.#releaseUser(connection);
    });
  }

  /**
   * Counts the connection among its user's open connections (main or proxy user), unless it is counted there already;
   * false when the user holds its limit of them. Counted as it is admitted, with no wait before, so that connections
   * admitted at once cannot all pass the limit.
   */
  admitUser(connection: Connection, account: GatewayAccount): boolean {
    const key = account.meterKey;
    if (connection.countedUser === key) return true;
    const open = this.#perUser.get(key) ?? 0;
    if (account.maxConnections !== undefined && open >= account.maxConnections) return false;
    this.#releaseUser(connection);
    this.#perUser.set(key, open + 1);
    connection.countedUser = key;
    return true;
  }

  #releaseUser(connection: Connection): void {
    const key = connection.countedUser;
    if (key === undefined) return;
    connection.countedUser = undefined;
    const open = (this.#perUser.get(key) ?? 1) - 1;
    if (open > 0) this.#perUser.set(key, open);
    else this.#perUser.delete(key);
  }

  /** Counts one connection (a tunnel or a plain-HTTP request) in the usage analytics of the connection's user. */
  countConnection(connection: Connection): void {
    if (connection.account) this.#meter.count(connection.account, connection.usage);
  }

  /** Counts the connection under its source; false, the connection destroyed, when the source has its fill. */
  admit(connection: Connection): boolean {
    const open = this.#perSource.get(connection.source) ?? 0;
    if (open >= this.#maxPerSource) {
      this.refusedPerIpLimit++;
      connection.socket.destroy();
      return false;
    }
    this.#perSource.set(connection.source, open + 1);
    connection.countedAs = connection.source;
    return true;
  }

  #release(connection: Connection): void {
    const source = connection.countedAs;
    if (source === undefined) return;
    connection.countedAs = undefined;
    const open = (this.#perSource.get(source) ?? 1) - 1;
    if (open > 0) this.#perSource.set(source, open);
    else this.#perSource.delete(source);
  }

  /** Cuts every open connection of the account. */
  cut(account: GatewayAccount): void {
    for (const connection of this.#all) if (connection.account === account) connection.socket.destroy();
  }

  /**
   * Hands the connection's new bytes (both directions, as the client sees them) to the meter; cuts at the limit. When
   * this gateway's slice of the account is spent while the next is being asked for, answers the reservation: the caller
   * holds its reading until then, so that nothing is carried past what the account gave.
   */
  meter(connection: Connection): Promise<unknown> | undefined {
    const { account, socket } = connection;
    if (!account) return undefined;
    const { bytesRead, bytesWritten } = socket;
    const upload = bytesRead - connection.meteredRead;
    const download = bytesWritten - connection.meteredWritten;
    if (upload <= 0 && download <= 0) return undefined;
    connection.meteredRead = bytesRead;
    connection.meteredWritten = bytesWritten;
    this.#meter.add(account, upload, download, connection.usage);
    if (remainingBytes(account) <= 0) {
      this.cut(account);
      return undefined;
    }
    return this.#keepLease(account);
  }

  /**
   * The reservation the connection must wait for before it carries more (its user's slice is spent while the next is
   * asked for), if any: a side held back for any reason resumes only once it settles.
   */
  heldBy({ account }: Connection): Promise<unknown> | undefined {
    if (!account || this.#meter.leaseLeft(account.meterKey) > 0 || !this.#meter.reserving(account.meterKey)) {
      return undefined;
    }
    return this.#meter.reserve(account.meterKey);
  }

  /**
   * Asks for the account's next slice when its lease runs low (answering the reservation when the lease is already
   * spent), and cuts its connections when the lease is spent and the account has nothing more for this gateway. While
   * the database cannot answer they carry on, as far as the account's last read allows.
   */
  #keepLease(account: GatewayAccount): Promise<unknown> | undefined {
    const key = account.meterKey;
    if (!this.#meter.wantsSlice(key)) return undefined;
    const spent = this.#meter.leaseLeft(key) <= 0;
    if (this.#meter.reserving(key)) return spent ? this.#meter.reserve(key) : undefined;
    if (this.#meter.spokenFor(key)) {
      if (spent) this.cut(account);
      return undefined;
    }
    const reservation = this.#meter.reserve(key).then((room) => {
      if (room === false) this.cut(account);
    });
    return spent ? reservation : undefined;
  }

  /** Why the account's user may carry nothing more: the account's data, a proxy user's allowance, or its pause. */
  whyStopped(account: GatewayAccount): 'usedUp' | 'allowanceUsedUp' | 'paused' {
    if (account.proxyUserId === '') return 'usedUp';
    const limitedBy = this.#meter.limitedBy(account.meterKey);
    return limitedBy === 'allowance' ? 'allowanceUsedUp' : limitedBy === 'paused' ? 'paused' : 'usedUp';
  }

  /**
   * Whether a new request of the account may start: its lease has room, or a reservation gives it some. Asks ahead when
   * the lease runs low; goes by the account's last read alone while the database cannot answer.
   */
  async mayCarry(account: GatewayAccount): Promise<boolean> {
    const key = account.meterKey;
    if (remainingBytes(account) <= 0) return false;
    if (this.#meter.leaseLeft(key) > 0) {
      this.#keepLease(account);
      return true;
    }
    if (this.#meter.spokenFor(key)) return false;
    return (await this.#meter.reserve(key)) !== false;
  }

  /** Meters every connection and cuts those their account no longer allows; starts a re-read of accounts when due. */
  tick(aheadMs: number): void {
    for (const connection of this.#all) {
      this.meter(connection);
      if (revoked(connection)) connection.socket.destroy();
    }
    this.#refreshAccounts(aheadMs);
  }

  /** Reads the accounts of open connections again when due, and cuts the connections they no longer allow. */
  #refreshAccounts(aheadMs: number): void {
    if (this.refreshing) return;
    const open = new Set<GatewayAccount>();
    for (const connection of this.#all) if (connection.account) open.add(connection.account);
    if (open.size === 0) return;
    this.refreshing = this.#accounts
      .refresh(open, aheadMs)
      .then(() => {
        for (const connection of this.#all) if (revoked(connection)) connection.socket.destroy();
      })
      .catch((error: unknown) => {
        if (Date.now() - this.#refreshErrorLoggedAt < REFRESH_ERROR_LOG_MS) return;
        this.#refreshErrorLoggedAt = Date.now();
        this.#log.error({ err: error }, 'gateway could not read the accounts of open connections again');
      })
      .finally(() => {
        this.refreshing = undefined;
      });
  }
}

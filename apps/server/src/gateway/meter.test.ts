import { describe, expect, it } from 'vitest';
import type { GatewayAccount } from './accounts.ts';
import { Meter } from './meter.ts';
import type { SqlClient } from './sql.ts';

const KB = 1024;

/**
 * The database as the meter sees it: reserve_residential_data() gives what is asked up to `available` KB (what the
 * account has beside the other gateways' leases), and the flush's statement is recorded.
 */
function database(available = Number.POSITIVE_INFINITY) {
  const calls: { text: string; params: unknown[] }[] = [];
  let answer: (() => void) | undefined;
  const state = { available, failing: false, held: false };
  const sql: SqlClient = {
    async query(text, params = []) {
      calls.push({ text, params });
      if (state.held)
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
      if (state.failing) throw new Error('the database is away');
      if (text.includes('reserve_residential_data'))
        return { rows: [{ kb: Math.min(Number(params[3]), state.available) }] };
      return { rows: [] };
    },
  };
  const reservations = () => calls.filter((call) => call.text.includes('reserve_residential_data'));
  const release = () => answer?.();
  return { sql, calls, reservations, state, release };
}

const account = { userId: 'u1', proxyUserId: '', meterKey: 'u1', localBytes: 0 } as GatewayAccount;
const meterOf = (sql: SqlClient, errors: unknown[] = []) =>
  new Meter({ sql, gatewayId: 'g1', sliceKb: 100, leaseMs: 30_000, shortForMs: 5000, onError: (e) => errors.push(e) });

describe('the meter’s slices of an account’s data', () => {
  it('asks for what is carried and unwritten plus a slice, and asks again at half a slice left', async () => {
    const db = database();
    const meter = meterOf(db.sql);
    expect(meter.leaseLeft('u1')).toBe(0);
    expect(meter.wantsSlice('u1')).toBe(true);
    meter.add(account, 10 * KB, 0);
    expect(await meter.reserve('u1')).toBe(true);
    expect(db.reservations()[0]?.params).toEqual(['u1', '', 'g1', 110, 30_000]);
    expect(meter.leaseLeft('u1')).toBe(100 * KB);
    meter.add(account, 0, 49 * KB);
    expect(meter.wantsSlice('u1')).toBe(false);
    meter.add(account, 0, 1 * KB);
    expect(meter.wantsSlice('u1')).toBe(true);
  });

  it('shares one reservation between calls at once, and keeps a short answer for a while', async () => {
    const db = database(30);
    const meter = meterOf(db.sql);
    const answers = await Promise.all([meter.reserve('u1'), meter.reserve('u1'), meter.reserve('u1')]);
    expect(answers).toEqual([true, true, true]);
    expect(db.reservations()).toHaveLength(1);
    expect(meter.leaseLeft('u1')).toBe(30 * KB);
    expect(meter.spokenFor('u1')).toBe(true);
    db.state.available = 0;
    meter.add(account, 0, 30 * KB);
    expect(await meter.reserve('u1')).toBe(false);
  });

  it('answers nothing known when the database is away, and does not ask again within a second', async () => {
    const db = database();
    const errors: unknown[] = [];
    const meter = meterOf(db.sql, errors);
    db.state.failing = true;
    expect(await meter.reserve('u1')).toBeUndefined();
    expect(await meter.reserve('u1')).toBeUndefined();
    expect(db.reservations()).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(meter.leaseLeft('u1')).toBe(0);
  });

  it('writes what was carried, takes it off the lease, and gives back a lease nothing was carried on since', async () => {
    const db = database();
    const meter = meterOf(db.sql);
    await meter.reserve('u1');
    meter.add(account, 0, 40 * KB + 10);
    await meter.flush();
    const write = db.calls.at(-1);
    // Whole KB are written; the 10 bytes wait. The lease is renewed, none given back.
    expect(write?.params.slice(0, 8)).toEqual([['u1'], [''], [40], 'g1', [], [], false, 30_000]);
    expect(meter.unwritten('u1')).toBe(10);
    expect(meter.leaseLeft('u1')).toBe(60 * KB - 10);
    await meter.flush();
    expect(db.calls.at(-1)?.params.slice(0, 8)).toEqual([[], [], [], 'g1', ['u1'], [''], false, 30_000]);
    expect(meter.leaseLeft('u1')).toBe(-10);
    // The last flush rounds the last bytes up and gives every lease back.
    await meter.flush({ final: true });
    expect(db.calls.at(-1)?.params.slice(0, 8)).toEqual([['u1'], [''], [1], 'g1', [], [], true, 30_000]);
    expect(meter.unwritten('u1')).toBe(0);
  });

  it('never writes and reserves at once: a reservation waits for the flush under way', async () => {
    const db = database();
    const meter = meterOf(db.sql);
    await meter.reserve('u1');
    meter.add(account, 0, 5 * KB);
    db.state.held = true;
    const flushed = meter.flush();
    const reserved = meter.reserve('u1');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(db.calls.filter((call) => !call.text.includes('reserve')).length).toBe(1);
    expect(db.reservations()).toHaveLength(1);
    db.state.held = false;
    db.release();
    await flushed;
    await reserved;
    // Asked after the write: nothing unwritten, one slice.
    expect(db.reservations()[1]?.params).toEqual(['u1', '', 'g1', 100, 30_000]);
  });
});

// What the gateway's usage recording costs, in its own code, in one process: per new connection (the target's
// registrable domain by the public suffix list, the usage key, the connection counted in its bucket) and per chunk
// carried (the bytes added to the bucket), with the domain recorded and without (USAGE_DOMAINS=false, or the customer's
// switch), against the same path with no recording at all. Hosts are 20,000 distinct names, so tldts's work is not
// one name's over and over. Prints ns per operation, best of 5 runs of 1,000,000; the per-chunk figure also as CPU
// seconds per GB at 64 KB chunks.
//   node bench/usage-recording.ts
import { performance } from 'node:perf_hooks';
import type { GatewayAccount } from '../apps/server/src/gateway/accounts.ts';
import { Meter } from '../apps/server/src/gateway/meter.ts';
import type { SqlClient } from '../apps/server/src/gateway/sql.ts';
import { registrableDomain, usageKey } from '../apps/server/src/gateway/usage.ts';

const RUNS = 5;
const OPERATIONS = 1_000_000;
const CHUNK = 64 * 1024;
const SUFFIXES = ['com', 'co.uk', 'de', 'com.au', 'io', 'org', 'fr', 'co.jp', 'net', 'com.br'];
const hosts = Array.from(
  { length: 20_000 },
  (_, n) => `${n % 3 === 0 ? 'www.' : n % 3 === 1 ? 'api.shop.' : ''}site${n}.${SUFFIXES[n % SUFFIXES.length]}`,
);
const countries = ['', 'US', 'DE', 'GB', 'JP'];

/** A meter that is never flushed: only its in-memory work is timed. */
const meter = () =>
  new Meter({
    sql: {} as SqlClient,
    gatewayId: 'bench',
    sliceKb: 16_384,
    leaseMs: 30_000,
    shortForMs: 1000,
    onError: () => {},
  });
const accounts = Array.from(
  { length: 500 },
  (_, n) => ({ userId: `user${n}`, proxyUserId: '', meterKey: `user${n}`, localBytes: 0 }) as unknown as GatewayAccount,
);

function best(run: () => void): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < RUNS; round++) {
    const started = performance.now();
    run();
    fastest = Math.min(fastest, ((performance.now() - started) * 1e6) / OPERATIONS);
  }
  return fastest;
}

/** A new connection as the gateway makes it: its usage key (domain or not), counted, its first chunk added. */
const connections = (domains: boolean | 'none') => () => {
  const m = meter();
  for (let i = 0; i < OPERATIONS; i++) {
    const account = accounts[i % accounts.length] as GatewayAccount;
    const usage =
      domains === 'none'
        ? ''
        : usageKey(
            countries[i % countries.length] ?? '',
            domains ? registrableDomain(hosts[i % hosts.length] ?? '') : '',
          );
    if (domains !== 'none') m.count(account, usage);
    m.add(account, 300, CHUNK, usage);
  }
};

/** A chunk of a download through an open connection, its usage key already made. */
const chunks = (usage: string) => () => {
  const m = meter();
  const account = accounts[0] as GatewayAccount;
  for (let i = 0; i < OPERATIONS; i++) m.add(account, 0, CHUNK, usage);
};

const perConnection = {
  none: best(connections('none')),
  country: best(connections(false)),
  domain: best(connections(true)),
};
const perChunk = { none: best(chunks('')), recorded: best(chunks(usageKey('US', 'example.com'))) };
const secondsPerGb = (ns: number) => ((ns * (1024 * 1024 * 1024)) / CHUNK / 1e9).toFixed(4);
console.log(`best of ${RUNS} runs of ${OPERATIONS.toLocaleString('en-US')}, Node ${process.version}\n`);
console.log('| per new connection | ns | over no recording |');
console.log('|---|---|---|');
console.log(`| no usage key (the meter's bytes only) | ${perConnection.none.toFixed(0)} | |`);
console.log(
  `| country only (domains off) | ${perConnection.country.toFixed(0)} | +${(perConnection.country - perConnection.none).toFixed(0)} ns |`,
);
console.log(
  `| country and registrable domain | ${perConnection.domain.toFixed(0)} | +${(perConnection.domain - perConnection.none).toFixed(0)} ns |`,
);
console.log('\n| per 64 KB chunk | ns | CPU s/GB |');
console.log('|---|---|---|');
console.log(`| bytes only | ${perChunk.none.toFixed(0)} | ${secondsPerGb(perChunk.none)} |`);
console.log(`| with the usage key | ${perChunk.recorded.toFixed(0)} | ${secondsPerGb(perChunk.recorded)} |`);

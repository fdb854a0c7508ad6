// The admin console on PostgreSQL with a /16 in the PK1 pool: the upload of 65,536 lines, the subnets call over 256
// subnets (a page, the last page, one subnet), the server's peak memory, and in Chromium the PK1 IP Inventory tab.
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { chromium } from 'playwright-core';
import { users } from '../apps/server/src/db/schema.ts';
import { createBenchDatabase } from './bench-database.ts';
import { startServer, stopProcess } from './start-server.ts';

const PORT = 3325;
const base = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'bench-admin@example.com', password: 'Str0ng!pass' };

/** Peak and current resident memory of a process, in MB (Linux). */
function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peakMb: Math.round(kb('VmHWM') / 1024), nowMb: Math.round(kb('VmRSS') / 1024) };
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const bench = await createBenchDatabase();
process.env.ADMIN_EMAILS = ADMIN.email;
const server = await startServer(PORT, bench.url);
const pid = server.pid ?? 0;
try {
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ ...ADMIN, name: 'bench' }),
  });
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status}`);
  // Confirmed here rather than through the mailed link; the sign-in then gives the admin role (ADMIN_EMAILS).
  await bench.database.db.update(users).set({ emailVerified: true }).where(eq(users.email, ADMIN.email));
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(ADMIN),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const headers = { cookie, origin: base, 'content-type': 'application/json' };

  const lines = Array.from({ length: 65_536 }, (_, i) => `10.20.${i >> 8}.${i & 255}:8000:user${i}:secret${i}`);
  const before = memoryOf(pid);
  const upload = await timed(async () => {
    const response = await fetch(`${base}/api/admin/stocks/pk1/upload`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ips: lines }),
    });
    return (await response.json()) as { added?: number; message?: string };
  });
  const afterUpload = memoryOf(pid);
  console.log(
    `upload of 65,536 lines (a /16): ${(upload.ms / 1000).toFixed(2)} s (target < 3 s), ${upload.value.added} added; ` +
      `server RSS ${before.nowMb} → ${afterUpload.nowMb} MB, peak ${afterUpload.peakMb} MB`,
  );

  const call = async (query: string) => {
    const runs: number[] = [];
    let bytes = 0;
    let subnets = 0;
    for (let i = 0; i < 7; i++) {
      const { ms, value } = await timed(async () => {
        const response = await fetch(`${base}/api/admin/ips/pk1/subnets${query}`, { headers: { cookie } });
        return response.text();
      });
      runs.push(ms);
      bytes = value.length;
      subnets = (JSON.parse(value) as { totalSubnets: number }).totalSubnets;
    }
    return { p50: median(runs), bytes, subnets };
  };
  const first = await call('');
  const last = await call(`?after=${encodeURIComponent('10.20.199.0/24')}`);
  const one = await call(`?subnet=${encodeURIComponent('10.20.7.0/24')}`);
  console.log(
    `GET /api/admin/ips/pk1/subnets over ${first.subnets} subnets, the first page: p50 ${first.p50.toFixed(0)} ms ` +
      `(target < 300 ms), ${(first.bytes / 1024).toFixed(1)} KB of JSON`,
  );
  console.log(
    `  the last page (?after=): p50 ${last.p50.toFixed(0)} ms, ${(last.bytes / 1024).toFixed(1)} KB; ` +
      `one subnet's IPs (?subnet=): p50 ${one.p50.toFixed(0)} ms, ${(one.bytes / 1024).toFixed(1)} KB`,
  );
  console.log(`server peak RSS over the run: ${memoryOf(pid).peakMb} MB`);

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name: name ?? '', value: value ?? '', url: base }]);
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/overview`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // The tab shows the first page of subnets: 10.20.0.0/24 to 10.20.49.0/24.
    const tab = await timed(async () => {
      await page.goto(`${base}/dashboard/admin?tab=pk1_inventory_list`);
      await page.getByRole('button', { name: /^10\.20\.49\.0\/24/ }).waitFor();
    });
    const switched = await timed(async () => {
      await page.getByRole('tab', { name: 'Inventory & Features' }).click();
      await page.getByRole('heading', { name: 'Purchase Toggle' }).waitFor();
      await page.getByRole('tab', { name: 'PK1 IP Inventory' }).click();
      await page.getByRole('button', { name: /^10\.20\.49\.0\/24/ }).waitFor();
    });
    const next = await timed(async () => {
      await page.getByRole('button', { name: 'Next subnets' }).first().click();
      await page.getByRole('button', { name: /^10\.20\.99\.0\/24/ }).waitFor();
    });
    const open = await timed(async () => {
      await page.getByRole('button', { name: /^10\.20\.64\.0\/24/ }).click();
      await page.getByRole('cell', { name: '10.20.64.255:8000:user16639:secret16639' }).waitFor();
    });
    console.log(
      `Chromium: the PK1 IP Inventory tab (a page of 50 of 256 subnets) is interactive in ${tab.ms.toFixed(0)} ms ` +
        `(target < 1 s, a fresh page load included); from the Inventory tab and back ${switched.ms.toFixed(0)} ms; ` +
        `the next page ${next.ms.toFixed(0)} ms; opening a card shows its 256 IPs in ${open.ms.toFixed(0)} ms`,
    );
  } finally {
    await browser.close();
  }
} finally {
  await stopProcess(server);
  await bench.drop();
}

// Runs every benchmark in turn; each prints its own figures.
import { execFileSync } from 'node:child_process';

for (const script of [
  'landing-size.ts',
  'lighthouse.ts',
  'layout-shift.ts',
  'pricing-rps.ts',
  'delivery.ts',
  'proxies.ts',
  'admin.ts',
  'gateway.ts',
  'usage-recording.ts',
  'release.ts',
]) {
  console.log(`\n== ${script}`);
  execFileSync(process.execPath, [new URL(script, import.meta.url).pathname], { stdio: 'inherit' });
}

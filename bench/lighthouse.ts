// A Lighthouse mobile run of the landing page with Debian's Chromium; prints the four scores and LCP.
import { spawn } from 'node:child_process';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = path.resolve(import.meta.dirname, '..');
const server = spawn(process.execPath, ['apps/server/src/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: '3303', HOST: '127.0.0.1', DATABASE_URL: 'memory://', LOG_LEVEL: 'warn' },
  stdio: 'inherit',
});
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
  ],
});
try {
  for (let i = 0; i < 120; i++) {
    const up = await fetch('http://127.0.0.1:3303/api/health').then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const result = await lighthouse('http://127.0.0.1:3303/', {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  });
  if (!result) throw new Error('Lighthouse returned nothing');
  const { categories, audits } = result.lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  console.log('Lighthouse (mobile, simulated throttling) of /:');
  console.log(
    `  performance ${score('performance')}  accessibility ${score('accessibility')}  best-practices ${score('best-practices')}  SEO ${score('seo')}`,
  );
  console.log(
    `  LCP ${audits['largest-contentful-paint']?.displayValue}  FCP ${audits['first-contentful-paint']?.displayValue}  TBT ${audits['total-blocking-time']?.displayValue}  CLS ${audits['cumulative-layout-shift']?.displayValue}`,
  );
} finally {
  await chrome.kill();
  server.kill('SIGTERM');
}

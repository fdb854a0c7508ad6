// A Lighthouse mobile run of the landing page with Debian's Chromium; prints the four scores and LCP.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer } from './start-server.ts';

const server = await startServer(3303);
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
  const result = await lighthouse('http://127.0.0.1:3303/', {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  });
  if (!result) throw new Error('Lighthouse returned nothing');
  const { categories, audits } = result.lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  if (process.env.LH_DETAILS) {
    // Which scripts keep the main thread busy (LH_DETAILS=1 npm run bench).
    const bootup = audits['bootup-time']?.details as { items?: { url: string; scripting: number; total: number }[] };
    for (const item of bootup?.items ?? []) {
      console.log(`  bootup ${Math.round(item.total)} ms (scripting ${Math.round(item.scripting)} ms) ${item.url}`);
    }
    const longTasks = audits['long-tasks']?.details as {
      items?: { url: string; startTime: number; duration: number }[];
    };
    for (const task of longTasks?.items ?? []) {
      console.log(`  long task at ${Math.round(task.startTime)} ms: ${Math.round(task.duration)} ms ${task.url}`);
    }
    // How each metric weighs in the performance score.
    for (const ref of categories.performance?.auditRefs ?? []) {
      if (!ref.weight) continue;
      const audit = audits[ref.id];
      console.log(`  ${ref.id}: ${audit?.displayValue} score ${audit?.score} weight ${ref.weight}`);
    }
  }
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

// The README's first command on a fresh clone, checked as a person would run it: `npm start` with no DATA_DIR, no .env
// and no build, after `npm ci`. It must build the web app, create ./data, answer the landing page and /api/health at
// http://localhost:3000, say where its data lives, and stop on SIGTERM to npm with exit code 0 and nothing left
// running. Then a second `npm start` must not build again. CI runs it on its own fresh clone (.ci/run), before the tests.
//   node scripts/fresh-start.ts        (in a fresh clone, after npm ci; refuses to run elsewhere)
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { root } from './web-build.ts';

const leftovers = ['data', '.env', 'apps/web/dist', 'apps/web/dist-ssr'].filter((entry) =>
  existsSync(path.join(root, entry)),
);
if (leftovers.length > 0) {
  console.error(`Not a fresh clone (${leftovers.join(', ')} exist): run this in a new clone after npm ci.`);
  process.exit(1);
}

async function npmStart(expectBuild: boolean): Promise<void> {
  const startedAt = Date.now();
  // Exactly the README's command, with no setting of ours: only what a shell passes on.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => ['PATH', 'HOME', 'USER', 'LANG', 'TERM', 'CI'].includes(name)),
  );
  const npm = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  npm.stdout.on('data', (data: Buffer) => {
    output += data.toString();
  });
  npm.stderr.on('data', (data: Buffer) => {
    output += data.toString();
  });
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  const fail = (message: string) => {
    try {
      if (npm.pid !== undefined) process.kill(-npm.pid, 'SIGKILL');
    } catch {}
    console.error(`${message}\n--- npm start said:\n${output}`);
    process.exit(1);
  };
  try {
    while (!/ready at http:\/\/localhost:3000/.test(output)) {
      if (npm.exitCode !== null) fail('npm start exited before it was ready.');
      if (Date.now() - startedAt > 300_000) fail('npm start was not ready within 5 minutes.');
      await sleep(100);
    }
    const readyAfter = Date.now() - startedAt;
    const built = output.includes('Building the web app first');
    if (built !== expectBuild) fail(expectBuild ? 'npm start did not build the web app.' : 'npm start built again.');
    if (!output.includes(`(embedded PGlite, data in ${path.join(root, 'data')})`)) {
      fail('The ready line does not say where the data lives.');
    }
    const landing = await fetch('http://localhost:3000/');
    const html = await landing.text();
    if (landing.status !== 200 || !html.includes('Proxy Storefront'))
      fail(`The landing page answered ${landing.status}.`);
    const health = await fetch('http://localhost:3000/api/health');
    if (health.status !== 200) fail(`/api/health answered ${health.status}.`);

    npm.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(15_000).then(() => 'timeout')]);
    if (code !== 0) fail(`npm start exited with ${code} after SIGTERM.`);
    await sleep(200);
    let left = false;
    try {
      if (npm.pid !== undefined) process.kill(-npm.pid, 0);
      left = true;
    } catch {}
    if (left) fail('A process of npm start is still running after it exited.');
    console.log(
      `npm start ${built ? 'built and ' : ''}answered the landing page after ${(readyAfter / 1000).toFixed(1)} s, ` +
        'and stopped on SIGTERM with exit code 0.',
    );
  } catch (error) {
    fail(String(error));
  }
}

try {
  await npmStart(true);
  await npmStart(false);
} finally {
  rmSync(path.join(root, 'data'), { recursive: true, force: true });
}

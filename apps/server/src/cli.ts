// The release's one entry (`node .`): the server by default, or `node . jobs [--once]`, `node . gateway`,
// `node . migrate`. Each command is its own module, loaded only when asked for.
const commands: Record<string, () => Promise<unknown>> = {
  serve: () => import('./main.ts'),
  jobs: () => import('./jobs.ts'),
  gateway: () => import('./gateway/main.ts'),
  migrate: () => import('./migrate.ts'),
};

const command = process.argv[2] === undefined || process.argv[2].startsWith('-') ? 'serve' : process.argv[2];
const load = commands[command];
if (load) {
  await load();
} else {
  console.error(`Unknown command "${command}": use node . [serve | jobs [--once] | gateway | migrate].`);
  process.exit(2);
}

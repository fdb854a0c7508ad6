// The release's one entry (`node .`): the server by default, or `node . jobs [--once]`, `node . gateway`,
// `node . migrate`. Each command is its own module, loaded only when asked for.
const commands: Record<string, { options: string[]; load: () => Promise<unknown> }> = {
  serve: { options: [], load: () => import('./main.ts') },
  migrate: { options: [], load: () => import('./migrate.ts') },
  jobs: { options: ['--once'], load: () => import('./jobs.ts') },
  gateway: { options: [], load: () => import('./gateway/main.ts') },
};

const usage = `Usage: node . [command]

Commands:
  serve           the shop: web server, API and, unless turned off, the gateway and the periodic job (the default)
  migrate         applies the database migrations, then exits
  jobs [--once]   the periodic job alone (renewals, expiries, reminders, e-mails) every JOBS_INTERVAL_S seconds;
                  with --once, runs what is due once and exits
  gateway         the residential proxy gateway alone, against the same database as the servers
  help            prints this help (also --help or -h)

Settings are read from the environment and from .env in the working folder (see docs/configuration.md).`;

const use = 'use node . [serve | migrate | jobs [--once] | gateway], or node . --help';

/** The command to run, or the sentence refusing the arguments: a typo must not start a server or the job loop. */
function parse(args: string[]): { command: string } | { help: true } | { refusal: string } {
  if (args.some((arg) => arg === '--help' || arg === '-h') || args[0] === 'help') return { help: true };
  const [first, ...rest] = args;
  if (first?.startsWith('-')) {
    return {
      refusal: `Unknown option "${first}": settings are environment variables or .env lines (such as PORT=8080), not options; ${use}.`,
    };
  }
  const command = first ?? 'serve';
  const known = commands[command];
  if (!known) return { refusal: `Unknown command "${command}": ${use}.` };
  const unknown = rest.find((arg) => !known.options.includes(arg));
  if (unknown === undefined) return { command };
  const takes = known.options.length > 0 ? `it takes only ${known.options.join(', ')}` : 'it takes no options';
  const what = unknown.startsWith('-') ? 'option' : 'argument';
  return { refusal: `Unknown ${what} "${unknown}" for ${command}: ${takes} (see node . --help).` };
}

const parsed = parse(process.argv.slice(2));
if ('help' in parsed) {
  console.log(usage);
} else if ('refusal' in parsed) {
  console.error(parsed.refusal);
  process.exit(2);
} else {
  await commands[parsed.command]?.load();
}

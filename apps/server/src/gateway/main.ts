// The residential gateway alone (`npm run gateway`), against the same PostgreSQL as the servers, so it can run on its own
// machines and be scaled apart from the web servers. Metered bytes are written every GATEWAY_FLUSH_MS and once more on
// SIGTERM or SIGINT, so a stop loses nothing.
import pino from 'pino';
import { loadConfigOrExit } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { startGateway } from './gateway.ts';

async function main() {
  const config = loadConfigOrExit();
  if (config.database.kind === 'pglite') {
    console.error(
      'The embedded database belongs to the server process, which runs the gateway itself (GATEWAY_ENABLED). ' +
        "A gateway on its own shares the servers' PostgreSQL: set DATABASE_URL.",
    );
    process.exit(1);
  }
  const log = pino({ level: config.logLevel });
  const database = await openDatabase(config.database);
  await database.migrate();
  const gateway = await startGateway({ db: database.db, config: config.gateway, log });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'gateway shutting down: writing the last metered bytes');
    try {
      await gateway.close();
    } finally {
      await database.close();
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('The gateway could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

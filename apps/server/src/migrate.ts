// `npm run migrate`, `node . migrate` in a release: applies the SQL migrations and exits, for deploy pipelines that
// migrate before they roll out (the servers still migrate at start unless MIGRATE_ON_START=false). Several at once are
// safe on PostgreSQL (an advisory lock); the embedded database is locked like for a server.
import { loadConfigOrExit } from './config.ts';
import { namedDatabaseFailure } from './db/connection-failure.ts';
import { DataDirInUse } from './lifecycle/data-dir-lock.ts';
import { openOwnedDatabase } from './start.ts';

async function main() {
  const config = loadConfigOrExit('migrate');
  const database = await openOwnedDatabase(config, {
    log: { error: (object, message) => console.error(message, object) },
    inUseHint: 'a server migrates at start; stop it to migrate alone',
  });
  try {
    await database.migrate().catch((error: unknown) => {
      throw namedDatabaseFailure(error, config.database);
    });
  } finally {
    await database.close();
  }
  console.log(`migrations applied (${database.kind === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'})`);
}

main().catch((error: unknown) => {
  if (error instanceof DataDirInUse) console.error(error.message);
  else console.error('The migrations could not be applied:', error instanceof Error ? error.message : error);
  process.exit(1);
});

import { loadConfigOrExit } from './config.ts';
import { prepareApp } from './start.ts';

async function main() {
  const config = loadConfigOrExit();

  const started = await prepareApp(config);
  const { app } = started;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await started.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { url: config.appUrl, database: started.database.kind },
    `storefront ready at ${config.appUrl} (${started.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'})`,
  );
}

main().catch((error: unknown) => {
  console.error('The server could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

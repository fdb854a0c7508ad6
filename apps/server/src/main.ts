import { loadConfigOrExit } from './config.ts';
import { type Gateway, startGateway } from './gateway/gateway.ts';
import { prepareApp } from './start.ts';

async function main() {
  const config = loadConfigOrExit();

  const started = await prepareApp(config);
  const { app } = started;
  let gateway: Gateway | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // The gateway first: its last metered bytes go to the database before the database closes.
    await gateway?.close().catch((error: unknown) => app.log.error({ err: error }, 'gateway metering not written'));
    await started.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  if (config.gateway.enabled) {
    gateway = await startGateway({
      db: started.database.db,
      config: config.gateway,
      log: app.log.child({ part: 'gateway' }),
    });
  }
  app.log.info(
    { url: config.appUrl, database: started.database.kind },
    `storefront ready at ${config.appUrl} (${started.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'})`,
  );
}

main().catch((error: unknown) => {
  console.error('The server could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

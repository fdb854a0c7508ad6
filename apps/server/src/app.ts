import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { catalogueRoutes } from './modules/catalogue/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { registerApiDocs } from './plugins/api-docs.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerSecurity } from './plugins/security.ts';
import { loadWebAppBuild, registerWebApp } from './plugins/web-app.ts';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** pino logger options; tests pass `false`. */
  logger?: boolean | object;
}

/** Builds the whole app without listening: external plugins, then app services, then routes. */
export async function buildApp({ config, database, logger }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], remove: true },
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  const webApp = loadWebAppBuild(config.webDistDir, config.site);
  await registerSecurity(app, { scriptHashes: webApp.scriptHashes });
  await registerApiDocs(app, config);

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database });
      await api.register(catalogueRoutes, { db: database.db, pricingCacheMs: config.pricingCacheMs });
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, { distDir: config.webDistDir, build: webApp });
  return app;
}

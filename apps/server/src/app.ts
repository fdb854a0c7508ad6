import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { createAuth, resolveAuthSecret } from './modules/auth/auth.ts';
import { createGuards } from './modules/auth/guards.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { catalogueRoutes } from './modules/catalogue/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { orderRoutes } from './modules/orders/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { registerApiDocs } from './plugins/api-docs.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerSecurity } from './plugins/security.ts';
import { loadWebAppBuild, registerWebApp } from './plugins/web-app.ts';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** pino logger options; tests pass `false`. */
  logger?: boolean | object;
  /** Tests pass a mailer that keeps the messages. */
  mailer?: Mailer;
}

/** Builds the whole app without listening: external plugins, then app services, then routes. */
export async function buildApp({ config, database, logger, mailer }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          'res.headers["set-auth-token"]',
        ],
        remove: true,
      },
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

  const auth = createAuth({
    config,
    db: database.db,
    mailer: mailer ?? createMailer(config.mail, app.log),
    logger: app.log,
    secret: await resolveAuthSecret(config.auth, app.log),
  });
  const guards = createGuards(auth, config);

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database });
      await api.register(catalogueRoutes, { db: database.db, pricingCacheMs: config.pricingCacheMs });
      await api.register(authRoutes, { auth, config });
      await api.register(userRoutes, { auth, db: database.db, guards });
      await api.register(orderRoutes, { db: database.db, guards, gatewayEndpoint: config.gatewayEndpoint });
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, { distDir: config.webDistDir, build: webApp });
  return app;
}

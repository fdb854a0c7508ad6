import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';

export const API_DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

/** The OpenAPI document, built from the routes' zod schemas, and its reference page at /api/docs. */
export async function registerApiDocs(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: `${config.site.brandName} API`,
        description: 'The product API of the proxy storefront. Answers are JSON; every error is `{ message }`.',
        version: '1.0.0',
      },
      servers: [{ url: config.appUrl }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // The reference page's own scripts only, as strict as the app's policy (no https: styles or fonts, no framing, no
    // validator badge from swagger.io); style attributes are allowed because Swagger UI sets them at run time.
    staticCSP: true,
    transformStaticCSP: () => API_DOCS_CSP,
    uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null },
  });
}

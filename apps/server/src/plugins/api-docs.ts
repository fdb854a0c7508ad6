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

/**
 * The OpenAPI document, built from the routes' zod schemas. Registered on the root before any route, so that it sees
 * every route; its reference page is registerApiDocsPage.
 */
export async function registerApiDocs(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: `${config.site.brandName} API`,
        description: 'The product API of the proxy storefront. Answers are JSON; every error is `{ message }`.',
        version: '1.0.0',
      },
      servers: [{ url: config.appUrl }],
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'storefront.session_token',
            description: 'The signed-in session of the web app (or its token as `Authorization: Bearer`).',
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'psk_…',
            description:
              'A personal API key, created on the Settings page. It reads the orders and proxy lists of its owner only; ' +
              'it never buys, cancels or changes the account.',
          },
          apiKeyInQuery: {
            type: 'apiKey',
            in: 'query',
            name: 'key',
            description: 'The personal API key in the link, for tools that load a proxy list by URL.',
          },
        },
      },
      tags: [
        {
          name: 'api keys',
          description:
            'Calls marked with the lock of **apiKey** take a personal API key as well as the session. Load the current ' +
            `proxy list into a tool by URL:\n\n\`\`\`\ncurl '${config.appUrl}/api/proxy-list?key=psk_YOUR_KEY&product=isp_proxies&format=http://user:pass@ip:port'\n\`\`\`\n\n` +
            `or read the orders as JSON:\n\n\`\`\`\ncurl -H 'Authorization: Bearer psk_YOUR_KEY' ${config.appUrl}/api/orders\n\`\`\``,
        },
      ],
    },
    transform: jsonSchemaTransform,
  });
}

/** The reference page at /api/docs: a page, so it is registered where pages get their security headers (app.ts). */
export async function registerApiDocsPage(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // The reference page's own scripts only, as strict as the app's policy (no https: styles or fonts, no framing, no
    // validator badge from swagger.io); style attributes are allowed because Swagger UI sets them at run time.
    staticCSP: true,
    transformStaticCSP: () => API_DOCS_CSP,
    uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null },
  });
}

import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers for every answer. The SPA loads only its own scripts; styles allow inline because Mantine sets
 * CSS variables and style props at run time (no script can be injected through a style attribute).
 */
export async function registerSecurity(app: FastifyInstance, options: { scriptHashes: string[] }): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The hashes allow exactly the inline scripts of the built index.html (the colour-scheme loader), nothing else.
        scriptSrc: ["'self'", ...options.scriptHashes],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
}

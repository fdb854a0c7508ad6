import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers for every answer, pages and API alike. The SPA loads only its own scripts; styles allow inline
 * because Mantine sets CSS variables and style props at run time (no script can be injected through a style attribute).
 */
export async function registerSecurity(
  app: FastifyInstance,
  options: {
    scriptHashes: string[] /** APP_URL is https: (HSTS is meaningless, and ignored, over plain HTTP). */;
    https: boolean;
  },
): Promise<void> {
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
    // The same answer as frame-ancestors 'none', for browsers that only read the older header.
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
}

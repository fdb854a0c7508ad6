import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers for every answer. The SPA loads only its own scripts; styles allow inline because Mantine sets
 * CSS variables and style props at run time (no script can be injected through a style attribute).
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

/**
 * The headers of a JSON answer under /api: what an API answer needs and no more (a page's policy, referrer and
 * cross-origin rules belong to pages). Nothing under /api may be framed or run as a document. Set as one fixed map:
 * @fastify/helmet builds its middleware anew on every request, which costs an API answer more than its body.
 */
export function apiSecurityHeaders(https: boolean): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    ...(https && { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }),
  };
}

export * from './auth.ts';
export * from './catalogue.ts';
export * from './messages.ts';
export * from './orders.ts';
export * from './paths.ts';
export * from './products.ts';
export * from './site.ts';
export * from './site-config.ts';

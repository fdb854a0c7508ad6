// @fastify/rate-limit's own stores, which the package ships without types (lib/rate-limit-store.ts uses both).
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';

  type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

  export default class RedisStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key?: string);
    key: string;
    redis: Redis;
    continueExceeding: boolean;
    exponentialBackoff: boolean;
    incr(key: string, callback: Callback, timeWindow: number, max: number): void;
    read(key: string, callback: Callback, timeWindow: number, max: number): void;
    /** Typed as the package types its stores; what it passes at run time is a RouteStoreOptions. */
    child(options: Parameters<FastifyRateLimitStore['child']>[0]): RedisStore;
  }

  export interface RouteStoreOptions {
    continueExceeding: boolean;
    exponentialBackoff: boolean;
    routeInfo: { method?: string; url?: string };
  }
}

declare module '@fastify/rate-limit/store/LocalStore.js' {
  type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

  export default class LocalStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, cache?: number);
    incr(key: string, callback: Callback, timeWindow: number, max: number): void;
    read(key: string, callback: Callback, timeWindow: number, max: number): void;
  }
}

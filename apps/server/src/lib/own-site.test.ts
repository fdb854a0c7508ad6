import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { comesFromOwnSite, isRefusedCrossSite, ownOrigins } from './own-site.ts';

const origins = ownOrigins('https://shop.example/some/page');
const request = (headers: Record<string, string>, method = 'POST') =>
  ({ method, headers, log: { warn() {} } }) as unknown as FastifyRequest;
const cookie = 'storefront.session_token=abc.def';

describe('ownOrigins', () => {
  it('keeps scheme, host and port of each address', () => {
    expect(ownOrigins('https://shop.example/x', 'http://shop.example:8080/')).toEqual([
      'https://shop.example',
      'http://shop.example:8080',
    ]);
  });

  it('takes every loopback name of a shop on one, with its port, and no other host', () => {
    const loopback = ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000'];
    expect(ownOrigins('http://localhost:3000/')).toEqual(loopback);
    expect(ownOrigins('http://127.0.0.1:3000')).toEqual(loopback);
    expect(ownOrigins('http://localhost:3000')).not.toContain('http://localhost:3001');
  });
});

describe('comesFromOwnSite', () => {
  it("accepts the shop's Origin, or its Referer when there is no Origin", () => {
    expect(comesFromOwnSite(request({ origin: 'https://shop.example' }), origins)).toBe(true);
    expect(comesFromOwnSite(request({ referer: 'https://shop.example/account?tab=2' }), origins)).toBe(true);
  });

  it('refuses what an attacker would try', () => {
    const attempts: Record<string, string>[] = [
      {},
      { origin: '' },
      { origin: 'null' },
      { origin: 'null', referer: 'https://shop.example/' },
      { origin: 'https://evil.example', referer: 'https://shop.example/' },
      { origin: 'https://shop.example.evil.example' },
      { origin: 'https://evil-shop.example' },
      { origin: 'https://shop.example:8443' },
      { origin: 'http://shop.example' },
      { origin: 'https://shop.example@evil.example' },
      { referer: 'https://evil.example/?https://shop.example' },
      { referer: 'not a url' },
    ];
    for (const headers of attempts) {
      expect(comesFromOwnSite(request(headers), origins), JSON.stringify(headers)).toBe(false);
    }
  });
});

describe('isRefusedCrossSite', () => {
  it('lets reads through whatever they carry', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      expect(isRefusedCrossSite(request({ origin: 'https://evil.example', cookie }, method), origins)).toBe(false);
    }
  });

  it('refuses a write without our Origin or Referer, with or without the session cookie', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(isRefusedCrossSite(request({ cookie }, method), origins)).toBe(true);
      expect(isRefusedCrossSite(request({}, method), origins)).toBe(true);
      expect(isRefusedCrossSite(request({ origin: 'null', cookie }, method), origins)).toBe(true);
      expect(isRefusedCrossSite(request({ origin: 'https://shop.example', cookie }, method), origins)).toBe(false);
    }
  });

  it('exempts only a bearer request that carries no session cookie (no site can make a browser send it)', () => {
    expect(isRefusedCrossSite(request({ authorization: 'Bearer token' }), origins)).toBe(false);
    expect(isRefusedCrossSite(request({ authorization: 'Bearer token', cookie }), origins)).toBe(true);
    expect(isRefusedCrossSite(request({ authorization: 'Basic dXNlcjpwYXNz' }), origins)).toBe(true);
    expect(isRefusedCrossSite(request({ authorization: 'Bearer token', cookie: 'other=1' }), origins)).toBe(false);
  });
});

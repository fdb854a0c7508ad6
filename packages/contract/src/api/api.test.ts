import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Endpoint, routeKeyOf } from '../endpoint.ts';
import { endpoints, routes } from './index.ts';

const all = Object.entries(endpoints) as [string, Endpoint][];

describe('the API defined once', () => {
  it('has one route for every endpoint and one endpoint for every route, the same address and access', () => {
    expect(Object.keys(endpoints).sort()).toEqual(Object.keys(routes).sort());
    for (const [name, endpoint] of all) {
      const route = (routes as Record<string, Partial<Endpoint>>)[name];
      expect({ name, ...route }).toEqual({
        name,
        method: endpoint.method,
        path: endpoint.path,
        access: endpoint.access,
        ...(endpoint.keyInQuery && { keyInQuery: true }),
      });
    }
  });

  it('names each address once', () => {
    const keys = all.map(([, endpoint]) => routeKeyOf(endpoint));
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it("keeps administrators' calls, and only them, under /admin/", () => {
    const misplaced = all
      .filter(([, endpoint]) => (endpoint.access === 'admin') !== endpoint.path.startsWith('/admin/'))
      .map(([name]) => name);
    expect(misplaced).toEqual([]);
  });

  it('takes a key in the query only for a read a key may make', () => {
    const wrong = all.filter(([, e]) => e.keyInQuery && e.access !== 'reader').map(([name]) => name);
    expect(wrong).toEqual([]);
  });

  it("has a params schema with exactly the path's parameters", () => {
    for (const [name, endpoint] of all) {
      const inPath = [...endpoint.path.matchAll(/:(\w+)/g)].map((match) => match[1]).sort();
      const inSchema = endpoint.params instanceof z.ZodObject ? Object.keys(endpoint.params.shape).sort() : [];
      expect({ name, params: inSchema }).toEqual({ name, params: inPath });
    }
  });

  it('has a response schema for every answer with a body, and none for 204', () => {
    for (const [name, endpoint] of all) {
      if (endpoint.status === 204) expect({ name, response: endpoint.response }).toEqual({ name, response: undefined });
    }
  });
});

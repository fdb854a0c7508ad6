import { describe, expect, it } from 'vitest';
import { addressOf, routeKeyOf } from './endpoint.ts';

describe('addressOf', () => {
  it('fills the parameters, encoded, and adds the query without its empty values', () => {
    expect(addressOf('/admin/ips/:pool/subnets', { pool: 'pk1' }, { subnet: '192.0.2.0/24', ips: false })).toBe(
      '/admin/ips/pk1/subnets?subnet=192.0.2.0%2F24&ips=false',
    );
    expect(addressOf('/api-keys/:id', { id: 'a b/c' })).toBe('/api-keys/a%20b%2Fc');
    expect(addressOf('/admin/audit-log', undefined, { page: 2, email: undefined })).toBe('/admin/audit-log?page=2');
    expect(addressOf('/orders')).toBe('/orders');
  });

  it('refuses to build an address with a parameter missing or empty', () => {
    expect(() => addressOf('/api-keys/:id', {})).toThrow('/api-keys/:id needs its parameter id');
    expect(() => addressOf('/api-keys/:id', { id: '' })).toThrow();
  });

  it('names a route as Fastify does', () => {
    expect(routeKeyOf({ method: 'DELETE', path: '/api-keys/:id' })).toBe('DELETE /api/api-keys/:id');
  });
});

import { describe, expect, it } from 'vitest';
import { checkTarget, EgressRefused, isPrivateAddress } from './egress.ts';

describe('gateway egress', () => {
  it('knows private, loopback, link-local and mapped addresses from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.20.1.1',
      '192.168.0.9',
      '169.254.169.254',
      '100.64.1.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('refuses private literals and local names, and allows anything when told to', async () => {
    await expect(checkTarget('127.0.0.1', false, true)).rejects.toBeInstanceOf(EgressRefused);
    await expect(checkTarget('[::1]', false, true)).rejects.toBeInstanceOf(EgressRefused);
    await expect(checkTarget('localhost', false, false)).rejects.toBeInstanceOf(EgressRefused);
    await expect(checkTarget('db.internal', false, true)).rejects.toBeInstanceOf(EgressRefused);
    await expect(checkTarget('8.8.8.8', false, true)).resolves.toBeUndefined();
    await expect(checkTarget('127.0.0.1', true, true)).resolves.toBeUndefined();
  });
});

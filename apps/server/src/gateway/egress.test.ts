import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isRefusedAddress } from '../lib/public-address.ts';
import { Egress, EgressRefused } from './egress.ts';

/** Addresses in a special-purpose range of the IANA IPv4 or IPv6 registry, or outside IPv6 global unicast: refused. */
const refused: [address: string, why: string][] = [
  ['0.0.0.0', 'this network'],
  ['0.1.2.3', 'this network'],
  ['10.0.0.1', 'private'],
  ['100.64.0.1', 'shared address space (CGNAT)'],
  ['100.127.255.254', 'shared address space (CGNAT)'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.1', 'IETF protocol assignments'],
  ['192.0.0.9', 'port control protocol anycast'],
  ['192.0.0.170', 'NAT64 discovery'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['192.31.196.1', 'AS112'],
  ['192.52.193.1', 'AMT'],
  ['192.88.99.1', 'deprecated 6to4 relay anycast'],
  ['192.168.1.1', 'private'],
  ['192.175.48.1', 'AS112'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation TEST-NET-2'],
  ['203.0.113.9', 'documentation TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'limited broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex spelling (what a URL parser writes)'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:192.0.2.2', 'IPv4-mapped documentation'],
  ['0:0:0:0:0:ffff:a9fe:a9fe', 'IPv4-mapped link-local, long spelling'],
  ['::127.0.0.1', 'IPv4-compatible (deprecated) loopback'],
  ['::8.8.8.8', 'IPv4-compatible (deprecated), public IPv4 inside'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated (RFC 6145)'],
  ['::ffff:0:8.8.8.8', 'IPv4-translated (RFC 6145), public IPv4 inside'],
  ['64:ff9b::127.0.0.1', 'NAT64 well-known prefix'],
  ['64:ff9b::8.8.8.8', 'NAT64 well-known prefix, public IPv4 inside'],
  ['64:ff9b:1::a00:1', 'NAT64 local-use prefix'],
  ['100::1', 'discard-only'],
  ['2001::1', 'Teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:10::1', 'ORCHID'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2001:db8::1', 'documentation'],
  ['2001:db8:ffff::1', 'documentation'],
  ['2002:7f00:1::1', '6to4 with loopback inside'],
  ['2002:808:808::1', '6to4 with a public IPv4 inside'],
  ['2620:4f:8000::1', 'AS112-v6'],
  ['3fff::1', 'documentation (RFC 9637)'],
  ['5f00::1', 'segment routing'],
  ['4000::1', 'outside global unicast 2000::/3'],
  ['fc00::1', 'unique local'],
  ['fd00::2', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
  ['not-an-address', 'not an address at all'],
];

/** Globally routable unicast addresses: carried. */
const carried: string[] = [
  '8.8.8.8',
  '1.1.1.1',
  '172.32.0.1',
  '100.128.0.1',
  '192.0.1.1',
  '198.20.0.1',
  '203.0.114.1',
  '223.255.255.254',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
];

const iface = (address: string): NetworkInterfaceInfo =>
  address.includes(':')
    ? { address, family: 'IPv6', netmask: 'ffff:ffff:ffff:ffff::', mac: '', internal: false, cidr: null, scopeid: 0 }
    : { address, family: 'IPv4', netmask: '255.255.255.0', mac: '', internal: false, cidr: null };

describe('gateway egress', () => {
  it.each(refused)('refuses %s (%s)', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(carried)('carries %s', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });

  it("refuses the host's own addresses in any spelling, and re-reads them when they change", async () => {
    let addresses = ['8.8.4.4', '2606:4700::1'];
    let reads = 0;
    const egress = new Egress({
      allowPrivate: false,
      interfaces: () => {
        reads++;
        return { eth0: addresses.map(iface) };
      },
      refreshMs: 0,
    });
    for (const target of ['8.8.4.4', '[::ffff:8.8.4.4]', '[::ffff:808:404]', '[2606:4700::1]', '[2606:4700:0::0:1]']) {
      await expect(egress.check(target, true), target).rejects.toBeInstanceOf(EgressRefused);
    }
    await expect(egress.check('8.8.8.8', true)).resolves.toBeUndefined();
    addresses = ['8.8.8.8'];
    await expect(egress.check('8.8.8.8', true)).rejects.toBeInstanceOf(EgressRefused);
    await expect(egress.check('8.8.4.4', true)).resolves.toBeUndefined();
    expect(reads).toBeGreaterThan(1);
  });

  it('reads the interfaces at most once per refresh period', async () => {
    let reads = 0;
    const egress = new Egress({
      allowPrivate: false,
      interfaces: () => {
        reads++;
        return { eth0: [iface('8.8.4.4')] };
      },
      refreshMs: 60_000,
    });
    for (let i = 0; i < 5; i++) await egress.check('8.8.8.8', true);
    expect(reads).toBe(1);
  });

  it('refuses private literals and local names, and allows anything when told to', async () => {
    const egress = new Egress({ allowPrivate: false });
    for (const target of ['127.0.0.1', '[::1]', '[::ffff:7f00:1]', '192.0.2.1', '[2001:db8::1]']) {
      await expect(egress.check(target, true), target).rejects.toBeInstanceOf(EgressRefused);
    }
    await expect(egress.check('localhost', false)).rejects.toBeInstanceOf(EgressRefused);
    await expect(egress.check('db.internal', true)).rejects.toBeInstanceOf(EgressRefused);
    await expect(egress.check('8.8.8.8', true)).resolves.toBeUndefined();
    await expect(new Egress({ allowPrivate: true }).check('127.0.0.1', true)).resolves.toBeUndefined();
  });
});

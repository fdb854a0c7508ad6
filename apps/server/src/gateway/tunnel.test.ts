import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Connection, OpenConnections } from './connections.ts';
import { relay } from './tunnel.ts';
import type { Onward } from './upstream.ts';

/** Both ends of a connection on loopback, half-open allowed as the gateway's are. */
async function socketPair(): Promise<{ near: net.Socket; far: net.Socket }> {
  const server = net.createServer({ allowHalfOpen: true });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = once(server, 'connection');
  const far = net.connect({ port: (server.address() as net.AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
  const [near] = (await accepted) as [net.Socket];
  server.close();
  return { near, far };
}

async function readAll(socket: net.Socket): Promise<Buffer> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'end');
  return Buffer.concat(chunks);
}

describe('tunnel relay', () => {
  it('carries both directions whole, passes each half-close on, and meters after chunks', async () => {
    const client = await socketPair();
    const target = await socketPair();
    let metered = 0;
    const open = {
      meter: () => {
        metered++;
        return undefined;
      },
      heldBy: () => undefined,
    } as unknown as OpenConnections;
    const onward: Onward = { socket: target.near, take: (taker) => target.near.on('data', taker) };
    relay(open, { socket: client.near } as Connection, onward);
    const upload = randomBytes(3 * 1024 * 1024);
    const download = randomBytes(5 * 1024 * 1024);
    const received = readAll(target.far);
    client.far.end(upload);
    expect((await received).equals(upload)).toBe(true);
    // The client's side ended, the target still answers (half-close): everything arrives, then the end.
    const answered = readAll(client.far);
    target.far.end(download);
    expect((await answered).equals(download)).toBe(true);
    expect(metered).toBeGreaterThan(0);
    // Both ends ended both ways: the relay's sockets close.
    await expect.poll(() => client.near.destroyed && target.near.destroyed).toBe(true);
  });

  it('drops the target when the client connection is cut', async () => {
    const client = await socketPair();
    const target = await socketPair();
    const onward: Onward = { socket: target.near, take: (taker) => target.near.on('data', taker) };
    relay(
      { meter() {}, heldBy: () => undefined } as unknown as OpenConnections,
      { socket: client.near } as Connection,
      onward,
    );
    const closed = once(target.near, 'close');
    // Cut by the gateway (or reset by the client): the target is dropped at once, not ended.
    client.near.destroy();
    await closed;
    expect(target.near.destroyed).toBe(true);
  });
});

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { HandshakeReader, MAX_HANDSHAKE_BUFFER, readGreeting, readRequest } from './socks5.ts';

/** Both ends of a connection on loopback: the client's and the one a server accepted. */
async function socketPair(): Promise<{ client: net.Socket; socket: net.Socket }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = once(server, 'connection');
  const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  const [socket] = (await accepted) as [net.Socket];
  server.close();
  return { client, socket };
}

describe('SOCKS 5 handshake reader', () => {
  it('holds at most a few KB of what a client sends, and hands on what came after the request whole', async () => {
    const { client, socket } = await socketPair();
    try {
      const greeting = Buffer.from([0x05, 0x01, 0x00]);
      const request = Buffer.from([0x05, 0x01, 0x00, 0x01, 127, 0, 0, 1, 0x00, 0x50]);
      // More than the socket buffers of both ends take: what the reader does not read stays with the client.
      const payload = randomBytes(16 * 1024 * 1024);
      client.write(Buffer.concat([greeting, request, payload]));
      const reader = new HandshakeReader(socket, Buffer.alloc(0));
      expect(await readGreeting(reader)).toEqual([0x00]);
      // While the gateway decides on the greeting (an account read), the client's bytes are not read on.
      await expect.poll(() => socket.isPaused()).toBe(true);
      expect(reader.buffered).toBeLessThanOrEqual(MAX_HANDSHAKE_BUFFER + 64 * 1024);
      expect(await readRequest(reader)).toEqual({ command: 1, host: '127.0.0.1', port: 80, addressType: 'ipv4' });
      // The client's first payload, sent with the request: handed on in order, none of it lost.
      const rest = reader.rest();
      const chunks: Buffer[] = [rest];
      let received = rest.length;
      const all = new Promise<void>((resolve) => {
        socket.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          received += chunk.length;
          if (received >= payload.length) resolve();
        });
      });
      socket.resume();
      await all;
      expect(Buffer.concat(chunks).equals(payload)).toBe(true);
    } finally {
      client.destroy();
      socket.destroy();
    }
  });
});

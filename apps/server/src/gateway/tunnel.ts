import type { Connection, OpenConnections } from './connections.ts';
import type { Onward } from './upstream.ts';

/**
 * The relay of every tunnel (CONNECT or SOCKS): both directions, metered from the client socket's counters after every
 * chunk, so a transfer that crosses the limit is cut within one chunk either way. Each side's end is passed on
 * (half-close).
 */
export function relay(open: OpenConnections, connection: Connection, onward: Onward): void {
  const client = connection.socket;
  const target = onward.socket;
  // Towards the client. A chunk may be a view of a buffer the target reads into again (upstream.ts, Onward): while
  // the client has not taken it whole, the target is paused (again, should anything else have resumed it).
  // Either side is also held while the account's next slice is asked for (OpenConnections.meter).
  const taken = () => {
    const held = open.heldBy(connection);
    if (held) void held.then(taken);
    else if (client.writableLength === 0) target.resume();
  };
  const given = () => {
    const held = open.heldBy(connection);
    if (held) void held.then(given);
    else if (!target.writableNeedDrain) client.resume();
  };
  onward.take((chunk) => {
    client.write(chunk, taken);
    if (client.writableLength > 0) target.pause();
    const slice = open.meter(connection);
    if (slice) {
      target.pause();
      void slice.then(taken);
    }
  });
  target.on('end', () => client.end());
  // Towards the target: the client's chunks are buffers of their own (Node's streams).
  client.on('data', (chunk: Buffer) => {
    if (!target.write(chunk)) client.pause();
    const slice = open.meter(connection);
    if (slice) {
      client.pause();
      void slice.then(given);
    }
  });
  target.on('drain', given);
  client.on('end', () => target.end());
  target.on('error', () => {});
  // A target that ended has ended the client already ('end' above): a second end() would only build an error.
  target.on('close', (hadError) => {
    if (hadError) client.destroy();
    else if (!client.writableEnded) client.end();
  });
  client.on('close', () => target.destroy());
  client.resume();
}

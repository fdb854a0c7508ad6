// A bare CONNECT proxy in plain Node.js, for bench/gateway.ts: what carrying a tunnel costs Node itself, with nothing of
// the gateway's (no accounts, metering, egress rules or SOCKS 5; one fixed Basic password), so the gateway's figures
// can be set beside the floor of the runtime it runs on as well as beside squid's. Not part of the product.
//   TUNNEL_PORT       the port to listen on (127.0.0.1)
//   TUNNEL_AUTH       the Proxy-Authorization value to accept ('Basic ...')
//   TUNNEL_READ       'stream' (default): both directions through Node's streams (`pipe`), a new buffer for every read,
//                     as the gateway reads; 'reuse': the target's bytes read into one buffer that is reused
//                     (`net.connect`'s `onread`), written on and read again only once the client has taken them
import net from 'node:net';

const port = Number(process.env.TUNNEL_PORT);
const expected = process.env.TUNNEL_AUTH ?? '';
const reuse = process.env.TUNNEL_READ === 'reuse';
const HEAD_LIMIT = 8192;

function refuse(client: net.Socket, status: string) {
  client.end(`HTTP/1.1 ${status}\r\nProxy-Authenticate: Basic realm="bench"\r\nContent-Length: 0\r\n\r\n`);
}

/** Opens the target; with `reuse`, its reads land in one buffer, each written to the client before the next read. */
function openTarget(client: net.Socket, host: string, targetPort: number) {
  if (!reuse) return net.connect({ host, port: targetPort, noDelay: true });
  let waiting = false;
  const target: net.Socket = net.connect({
    host,
    port: targetPort,
    noDelay: true,
    onread: {
      buffer: Buffer.allocUnsafe(64 * 1024),
      callback: (read, buffer) => {
        client.write(buffer.subarray(0, read), () => {
          if (waiting && client.writableLength === 0) {
            waiting = false;
            target.resume();
          }
        });
        // Still queued: the buffer is the client's until it is written, so nothing more is read into it until then.
        if (client.writableLength > 0) {
          waiting = true;
          target.pause();
        }
        return true;
      },
    },
  });
  return target;
}

net
  .createServer({ noDelay: true }, (client) => {
    client.on('error', () => client.destroy());
    let head = Buffer.alloc(0);
    const onHead = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > HEAD_LIMIT) client.destroy();
        return;
      }
      client.off('data', onHead);
      client.pause();
      const [requestLine = '', ...fields] = head.subarray(0, end).toString('latin1').split('\r\n');
      const rest = head.subarray(end + 4);
      const [method, authority = ''] = requestLine.split(' ');
      const authorization = fields
        .find((field) => field.toLowerCase().startsWith('proxy-authorization:'))
        ?.slice('proxy-authorization:'.length)
        .trim();
      const colon = authority.lastIndexOf(':');
      if (method !== 'CONNECT' || colon < 0) return refuse(client, '400 Bad Request');
      if (authorization !== expected) return refuse(client, '407 Proxy Authentication Required');
      const target = openTarget(client, authority.slice(0, colon), Number(authority.slice(colon + 1)));
      target.on('error', () => client.destroy());
      // A target that closed cleanly has ended the client already (what it sent is still being written).
      target.on('close', (hadError) => {
        if (hadError) client.destroy();
      });
      client.on('close', () => target.destroy());
      target.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (rest.length > 0) target.write(rest);
        client.pipe(target);
        if (reuse) target.on('end', () => client.end());
        else target.pipe(client);
        client.resume();
      });
    };
    client.on('data', onHead);
  })
  .listen(port, '127.0.0.1', () => console.log(`node tunnel listening on port ${port}`));

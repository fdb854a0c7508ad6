// A bare proxy in plain Node.js, for bench/gateway.ts: what carrying traffic costs Node itself, with nothing of the
// gateway's (no accounts, metering, egress rules, targeting or SOCKS 5; one fixed Basic password), so that the gateway's
// figures can be set beside the floor of the runtime it runs on as well as beside squid's. It is the plain way to write
// a proxy in Node, as the gateway is: Node's HTTP server reads each request's head (absolute-form requests and
// CONNECT), and a plain-HTTP request goes on through Node's HTTP client with kept-alive connections. Not part of the
// product.
//   PROXY_PORT   the port to listen on (127.0.0.1)
//   PROXY_AUTH   the Proxy-Authorization value to accept ('Basic ...')
//   PROXY_READ   how a tunnel reads its target: 'stream' (default) through Node's streams (`pipe`), a new buffer for
//                every read; 'reuse' into one buffer that is reused (`net.connect`'s `onread`), written on and read
//                again only once the client has taken it
import http from 'node:http';
import net from 'node:net';

const port = Number(process.env.PROXY_PORT);
const expected = process.env.PROXY_AUTH ?? '';
const reuse = process.env.PROXY_READ === 'reuse';
const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 256, scheduling: 'lifo' });
/** Headers for this hop only, not passed on. */
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
]);
/** A flat list of header names and values (as received) without those of this hop. */
const endToEnd = (raw: string[]) => {
  const kept: string[] = [];
  for (let index = 0; index < raw.length; index += 2) {
    if (!HOP.has(raw[index]?.toLowerCase() ?? '')) kept.push(raw[index] ?? '', raw[index + 1] ?? '');
  }
  return kept;
};

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

const server = http.createServer(
  { requireHostHeader: false, noDelay: true, keepAliveTimeout: 60_000 },
  (request, response) => {
    let url: URL | undefined;
    try {
      url = new URL(request.url ?? '');
    } catch {}
    if (!url || url.protocol !== 'http:') {
      response.writeHead(400).end();
      return;
    }
    if (request.headers['proxy-authorization'] !== expected) {
      response.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="bench"' }).end();
      return;
    }
    const onward = http.request({
      host: url.hostname,
      port: Number(url.port || 80),
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: endToEnd(request.rawHeaders),
      setHost: false,
      agent,
    });
    onward.on('response', (incoming) => {
      response.writeHead(incoming.statusCode ?? 502, endToEnd(incoming.rawHeaders));
      incoming.pipe(response);
    });
    onward.on('error', () => response.destroy());
    response.on('close', () => {
      if (!response.writableFinished) onward.destroy();
    });
    request.pipe(onward);
  },
);

server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
  client.on('error', () => client.destroy());
  const authority = request.url ?? '';
  const colon = authority.lastIndexOf(':');
  if (colon < 0) return client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
  if (request.headers['proxy-authorization'] !== expected) {
    return client.end(
      'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="bench"\r\nContent-Length: 0\r\n\r\n',
    );
  }
  const target = openTarget(client, authority.slice(0, colon), Number(authority.slice(colon + 1)));
  target.on('error', () => client.destroy());
  // A target that closed cleanly has ended the client already (what it sent is still being written).
  target.on('close', (hadError) => {
    if (hadError) client.destroy();
  });
  client.on('close', () => target.destroy());
  target.once('connect', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) target.write(head);
    client.pipe(target);
    if (reuse) target.on('end', () => client.end());
    else target.pipe(client);
  });
});

server.listen(port, '127.0.0.1', () => console.log(`node proxy listening on port ${port}`));

import http from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import tls from 'node:tls';

/** What came back: the answer's status, headers and body (the proxy's own, when it refused). */
export interface ProxiedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** More than any address echo answers: a longer body is not read on. */
const MAX_BODY_BYTES = 64 * 1024;

function readBody(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    response.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > MAX_BODY_BYTES) {
        response.destroy(new Error(`the answer is longer than ${MAX_BODY_BYTES / 1024} KB`));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
    response.on('aborted', () => reject(new Error('the answer was cut short')));
  });
}

const answerOf = async (response: http.IncomingMessage): Promise<ProxiedAnswer> => ({
  status: response.statusCode ?? 0,
  headers: response.headers,
  body: await readBody(response),
});

/** Where to connect: `host:port`, an IPv6 address in brackets. */
export function proxyAddress(endpoint: string): { host: string; port: number } {
  const colon = endpoint.lastIndexOf(':');
  return { host: endpoint.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(endpoint.slice(colon + 1)) };
}

/**
 * One GET of `url` through the HTTP proxy at `proxy` (`host:port`) with Basic credentials: in absolute form for
 * http://, through a CONNECT tunnel and TLS for https://. A refusal of the proxy is answered as it came (its status and
 * headers, Proxy-Status included); `signal` ends it all.
 */
export function getThroughProxy({
  proxy,
  authorization,
  url,
  signal,
}: {
  proxy: string;
  authorization: string;
  url: URL;
  signal: AbortSignal;
}): Promise<ProxiedAnswer> {
  const { host, port } = proxyAddress(proxy);
  const toProxy = { host, port, agent: false as const, signal };
  if (url.protocol === 'http:') {
    return new Promise((resolve, reject) => {
      const request = http.request({
        ...toProxy,
        method: 'GET',
        path: url.href,
        headers: { Host: url.host, 'Proxy-Authorization': authorization, Connection: 'close' },
      });
      request.on('response', (response) => answerOf(response).then(resolve, reject));
      request.on('error', reject);
      request.end();
    });
  }
  const authority = `${url.hostname}:${url.port || 443}`;
  return new Promise((resolve, reject) => {
    const connect = http.request({
      ...toProxy,
      method: 'CONNECT',
      path: authority,
      headers: { Host: authority, 'Proxy-Authorization': authorization },
    });
    connect.on('connect', (response: http.IncomingMessage, socket: Socket) => {
      if (response.statusCode !== 200) {
        // The refusal's words are in its Proxy-Status header; its body is not read on.
        socket.destroy();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: '' });
        return;
      }
      const request = https.request({
        host: url.hostname,
        path: `${url.pathname}${url.search}`,
        headers: { Host: url.host, Connection: 'close' },
        signal,
        // SNI names a host, never an address.
        createConnection: () =>
          tls.connect({ socket, servername: isIP(url.hostname) === 0 ? url.hostname : undefined }),
      });
      request.on('response', (answer) => answerOf(answer).then(resolve, reject));
      request.on('error', reject);
      request.end();
    });
    connect.on('error', reject);
    connect.end();
  });
}

/** The words of a Proxy-Status header's `details` (RFC 9209), the first intermediary's that gives some. */
export function proxyStatusDetails(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(', ') : header;
  const quoted = value === undefined ? undefined : /;\s*details="((?:[^"\\]|\\.)*)"/.exec(value)?.[1];
  return quoted?.replace(/\\(.)/g, '$1');
}

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { E2E } from './ports.ts';

const run = promisify(execFile);

/**
 * The shop's landing page fetched by curl through the residential gateway, as a customer's tool would: through
 * `proxy` (http://host:port with `credentials`, or a socks5:// URL carrying them); fails when curl does.
 */
export async function curlThroughGateway(
  proxy: string,
  credentials?: { username: string; password: string },
): Promise<string> {
  const login = credentials ? ['--proxy-user', `${credentials.username}:${credentials.password}`] : [];
  const { stdout } = await run('curl', ['--silent', '--fail', '--proxy', proxy, ...login, `${E2E.appUrl}/`]);
  return stdout;
}

/** One request through the gateway with curl: its status (000 when the proxy refused a tunnel) and bytes. */
export async function statusThroughGateway(proxy: string, url: string): Promise<{ status: string; bytes: number }> {
  const { stdout } = await run('curl', [
    '--silent',
    '--proxy',
    proxy,
    '--output',
    '/dev/null',
    '--write-out',
    '%{http_code} %{size_download}',
    url,
  ]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '000 0' }));
  const [status = '000', bytes = '0'] = stdout.trim().split(' ');
  return { status, bytes: Number(bytes) };
}

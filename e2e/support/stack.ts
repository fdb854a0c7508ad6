/**
 * What the browser tests run against: the app on a fresh in-memory database, an SMTP server that keeps every message
 * (smtp-server), and a local OpenID Connect provider (oauth2-mock-server) configured as the app's Google sign-in.
 * A small control server lets the tests read the mail and choose the next social identity.
 */
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { createServer } from 'node:http';
import { OAuth2Server } from 'oauth2-mock-server';
import { SMTPServer } from 'smtp-server';
import { E2E } from './ports.ts';

interface StoredMail {
  to: string[];
  raw: string;
}
const mails: StoredMail[] = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    let raw = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      raw += chunk;
    });
    stream.on('end', () => {
      mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()), raw });
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(E2E.smtpPort, '127.0.0.1', resolve));

let nextIdentity: { sub: string; email: string; name: string; email_verified?: boolean } = {
  sub: 'google-user-1',
  email: 'social@e2e.test',
  name: 'Social User',
};
const oidc = new OAuth2Server();
await oidc.issuer.keys.generate('RS256');
oidc.service.on('beforeTokenSigning', (token) => {
  Object.assign(token.payload, { email_verified: true, ...nextIdentity });
});
oidc.service.on('beforeUserinfo', (response) => {
  response.body = { email_verified: true, ...nextIdentity };
});
await oidc.start(E2E.oidcPort, '127.0.0.1');

const control = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://control');
  if (request.method === 'GET' && url.pathname === '/mails') {
    const to = url.searchParams.get('to')?.toLowerCase();
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(mails.filter((mail) => !to || mail.to.includes(to))));
    return;
  }
  // The connection test's echo (GATEWAY_TEST_URL): the address a request came from, and always the same country.
  if (request.method === 'GET' && url.pathname === '/echo') {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ ip: request.socket.remoteAddress?.replace(/^::ffff:/, ''), country: 'NL' }));
    return;
  }
  if (request.method === 'POST' && url.pathname === '/oidc/identity') {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      nextIdentity = JSON.parse(body);
      response.end('{}');
    });
    return;
  }
  response.statusCode = 404;
  response.end();
});
await new Promise<void>((resolve) => control.listen(E2E.controlPort, '127.0.0.1', resolve));

// `npm run proof` keeps the app's whole info log (E2E_LOG_FILE) and scans it for secrets afterwards.
const logFile = process.env.E2E_LOG_FILE ? openSync(process.env.E2E_LOG_FILE, 'a') : undefined;
const app = spawn(process.execPath, ['apps/server/src/main.ts'], {
  stdio: logFile === undefined ? 'inherit' : ['ignore', logFile, 'inherit'],
  env: {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(E2E.appPort),
    APP_URL: E2E.appUrl,
    DATABASE_URL: 'memory://',
    LOG_LEVEL: logFile === undefined ? 'warn' : 'info',
    // No metrics listener: other servers of the machine's test runs may hold its default port.
    METRICS_PORT: '0',
    SMTP_URL: `smtp://127.0.0.1:${E2E.smtpPort}`,
    MAIL_FROM: 'Proxy Storefront <no-reply@e2e.test>',
    ADMIN_EMAILS: [
      E2E.adminEmail,
      E2E.stockAdminEmail,
      E2E.consoleAdminEmail,
      E2E.clockAdminEmail,
      E2E.topUpAdminEmail,
      E2E.a11yAdminEmail,
      E2E.a11yAdminEmail2,
      E2E.speedAdminEmail,
      E2E.longTasksAdminEmail,
    ].join(','),
    GOOGLE_CLIENT_ID: 'e2e-google-client',
    GOOGLE_CLIENT_SECRET: 'e2e-google-secret',
    GOOGLE_DISCOVERY_URL: `http://127.0.0.1:${E2E.oidcPort}/.well-known/openid-configuration`,
    AUTH_RATE_LIMIT_PER_IP: '100000',
    AUTH_RATE_LIMIT_PER_EMAIL: '1000',
    GATEWAY_PORT: String(E2E.gatewayPort),
    // The tests send their traffic to this same machine, which the gateway otherwise refuses as a target.
    GATEWAY_ALLOW_PRIVATE: 'true',
    GATEWAY_FLUSH_MS: '300',
    GATEWAY_TEST_URL: `http://127.0.0.1:${E2E.controlPort}/echo`,
  },
});

const stop = async () => {
  app.kill('SIGTERM');
  await oidc.stop().catch(() => {});
  smtp.close();
  control.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
app.on('exit', (code) => {
  console.error(`the app exited (${code})`);
  process.exit(code ?? 1);
});

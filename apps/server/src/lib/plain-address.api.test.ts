import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, confirmationLinkOf, createTestApp, TEST_PASSWORD, type TestApp } from '../test/test-app.ts';
import { unplainPathMessage } from './plain-address.ts';

// Over a real connection: app.inject tidies the path as a URL parser does, which is the very difference under test.
describe('a path means one thing', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(() => t.close());

  /** Sends one request as written, byte for byte, and returns its status, headers and body. */
  async function send(method: string, path: string, payload?: object) {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const socket = net.connect(port, '127.0.0.1');
    // Written, not ended: the server closes once it has answered (Connection: close).
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: localhost:3000\r\nOrigin: http://localhost:3000\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    let answer = '';
    for await (const chunk of socket) answer += String(chunk);
    const [head = '', text = ''] = answer.split('\r\n\r\n');
    return { status: Number(head.split(' ')[1]), head, text };
  }

  const spellings = [
    '/api/auth/./sign-in/email',
    '/api/auth/x/../sign-in/email',
    '/api/auth/%2e/sign-in/email',
    '/api/auth/sign-in/./email',
    '/api/auth/sign-in\\email',
    '/api/auth/sign-in/email#x',
  ];

  it('refuses sign-in under any other spelling of its path, so that no guess goes uncounted', async () => {
    const email = 'dots@example.com';
    await callApi(t, 'POST', '/api/auth/sign-up/email', {
      payload: { email, password: TEST_PASSWORD, name: 'Dots', callbackURL: '/auth/callback' },
    });
    for (const path of spellings) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const answer = await send('POST', path, { email, password: 'wrong-password-1' });
        expect(answer.status, path).toBe(400);
        expect(JSON.parse(answer.text), path).toEqual({ message: unplainPathMessage });
      }
    }
    // The plain path counts every guess: the limit per address is reached where it always was.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 9; attempt++) {
      statuses.push((await send('POST', '/api/auth/sign-in/email', { email, password: 'wrong-password-1' })).status);
    }
    expect(statuses).toEqual([...Array(8).fill(401), 429]);
  });

  it('refuses a confirmation link under another spelling (it would sign in without the password)', async () => {
    const email = 'hijack@example.com';
    await callApi(t, 'POST', '/api/auth/sign-up/email', {
      payload: { email, password: TEST_PASSWORD, name: 'Hijack', callbackURL: '/auth/callback' },
    });
    const link = new URL(await confirmationLinkOf(t, email), t.config.appUrl);
    const token = link.searchParams.get('token');
    for (const path of [
      `/api/auth/./verify-email${link.search}`,
      `/api/auth/%2e/verify-email${link.search}`,
      // Fastify read a query on past the `#` (two tokens: no detour) where better-auth read one.
      `/api/auth/verify-email?token=${token}#&token=${token}`,
    ]) {
      const answer = await send('GET', path);
      expect(answer.status, path).toBe(400);
      expect(answer.head, path).not.toMatch(/set-cookie/i);
    }
    // A token given twice still leads to the confirmation page, which asks for the password.
    const twice = await send('GET', `/api/auth/verify-email?token=${token}&token=${token}`);
    expect(twice.status).toBe(303);
    expect(twice.head).not.toMatch(/set-cookie/i);
    const signIn = await callApi(t, 'POST', '/api/auth/sign-in/email', { payload: { email, password: TEST_PASSWORD } });
    expect(signIn.json().code).toBe('EMAIL_NOT_VERIFIED');
  });

  it('refuses such a path anywhere in the shop, pages included', async () => {
    expect((await send('GET', '/api/admin/../orders')).status).toBe(400);
    expect((await send('GET', '/dashboard/./overview')).status).toBe(400);
    expect((await send('GET', '/api/health')).status).toBe(200);
  });
});

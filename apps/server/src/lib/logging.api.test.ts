import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';

/** The messages an app logged at info or above while answering one request. */
async function messagesOfOneRequest(env: Record<string, string>): Promise<string[]> {
  const messages: string[] = [];
  const log = new PassThrough();
  log.on('data', (chunk: Buffer) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) messages.push(JSON.parse(line).msg);
  });
  const t = await createTestApp(env, { log });
  try {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  } finally {
    await t.close();
  }
  return messages;
}

describe("a request's log lines", () => {
  it('are at debug in development, so the terminal keeps what matters', async () => {
    const messages = await messagesOfOneRequest({ NODE_ENV: 'development' });
    expect(messages).not.toContain('incoming request');
    expect(messages).not.toContain('request completed');
  });

  it('stay at info elsewhere, for the log collector', async () => {
    const messages = await messagesOfOneRequest({});
    expect(messages).toContain('incoming request');
    expect(messages).toContain('request completed');
  });
});

import { PassThrough } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from './request-logger.ts';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  const parent = pino({ level }, stream);
  // pino writes synchronously to a stream; the data event follows on the same tick.
  return { parent, lines };
}

describe('the lazy request logger', () => {
  it('makes no child logger for lines its level drops, and one, with the request id, for the first it writes', () => {
    const { parent, lines } = capture('warn');
    const child = vi.spyOn(parent, 'child');
    const log = lazyRequestLogger(parent, { reqId: 'req-1' }, {});
    log.info('dropped');
    log.debug({ a: 1 }, 'dropped too');
    expect(child).not.toHaveBeenCalled();
    log.warn({ path: '/x' }, 'kept');
    log.error('also kept');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([
      { level: 40, reqId: 'req-1', path: '/x', msg: 'kept' },
      { level: 50, reqId: 'req-1', msg: 'also kept' },
    ]);
    expect(lines).toHaveLength(2);
  });

  it("follows a route's own level over the server's", () => {
    const { parent, lines } = capture('warn');
    const log = lazyRequestLogger(parent, { reqId: 'req-2' }, { level: 'debug' });
    expect(log.level).toBe('debug');
    log.trace('dropped');
    log.debug('kept');
    expect(lines).toMatchObject([{ level: 20, reqId: 'req-2', msg: 'kept' }]);
    const quiet = lazyRequestLogger(parent, { reqId: 'req-3' }, { level: 'silent' });
    quiet.fatal('dropped');
    expect(lines).toHaveLength(1);
  });

  it('writes every line at info exactly as pino would, and its children keep the request id', () => {
    const { parent, lines } = capture('info');
    const log = lazyRequestLogger(parent, { reqId: 'req-4' }, {});
    log.info({ res: { statusCode: 200 } }, 'request completed');
    log.child({ part: 'mailer' }).info('sent %d', 2);
    expect(lines).toMatchObject([
      { level: 30, reqId: 'req-4', res: { statusCode: 200 }, msg: 'request completed' },
      { level: 30, reqId: 'req-4', part: 'mailer', msg: 'sent 2' },
    ]);
  });

  it('takes a new level for the rest of the request', () => {
    const { parent, lines } = capture('warn');
    const log = lazyRequestLogger(parent, { reqId: 'req-5' }, {});
    log.level = 'info';
    log.info('kept');
    expect(log.level).toBe('info');
    expect(parent.level).toBe('warn');
    expect(lines).toMatchObject([{ level: 30, reqId: 'req-5', msg: 'kept' }]);
  });

  it("hands Fastify's null logger back as it is (it is its own child)", () => {
    const nullLogger = { child: vi.fn(() => nullLogger) } as unknown as Parameters<typeof lazyRequestLogger>[0];
    expect(lazyRequestLogger(nullLogger, { reqId: 'req-6' }, {})).toBe(nullLogger);
  });
});

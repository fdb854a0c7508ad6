import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createMailer, maskedAddress } from './mailer.ts';

describe('maskedAddress', () => {
  it('keeps the first character and the domain only', () => {
    expect(maskedAddress('ann.smith@example.com')).toBe('a***@example.com');
    expect(maskedAddress('a@b.example')).toBe('a***@b.example');
    expect(maskedAddress('"odd@local"@example.com')).toBe('"***@example.com');
    expect(maskedAddress('not-an-address')).toBe('***');
  });
});

describe('the mailer without SMTP_URL', () => {
  it('writes each link of the e-mail on a line of its own', async () => {
    const lines: unknown[][] = [];
    const logger = { info: (...args: unknown[]) => lines.push(args) } as unknown as FastifyBaseLogger;
    const mailer = createMailer({ smtpUrl: undefined, from: 'shop@example.com' }, logger);
    await mailer.send({
      to: 'ann@example.com',
      subject: 'Confirm',
      text: 'Open http://localhost:3000/api/auth/verify-email?token=abc&callbackURL=%2F to confirm.',
      html: '',
    });
    expect(lines.map((args) => args.at(-1))).toContain(
      'link in the e-mail to ann@example.com: http://localhost:3000/api/auth/verify-email?token=abc&callbackURL=%2F',
    );
  });
});

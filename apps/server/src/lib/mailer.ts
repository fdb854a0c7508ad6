import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** True when messages leave the machine over SMTP; false when they are only written to the log. */
  readonly delivers: boolean;
  send(mail: Mail): Promise<void>;
}

/**
 * nodemailer over SMTP_URL. Without SMTP the whole message, link included, goes to the log so that a newcomer on the
 * embedded default can still confirm an address or reset a password; with SMTP only the recipient and subject are logged.
 */
export function createMailer(
  options: { smtpUrl: string | undefined; from: string },
  logger: FastifyBaseLogger,
): Mailer {
  if (!options.smtpUrl) {
    return {
      delivers: false,
      async send(mail) {
        logger.info(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          'e-mail (no SMTP_URL set, so not sent)',
        );
      },
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    delivers: true,
    async send(mail) {
      await transport.sendMail({ from: options.from, ...mail });
      logger.info({ mail: { to: mail.to, subject: mail.subject } }, 'e-mail sent');
    },
  };
}

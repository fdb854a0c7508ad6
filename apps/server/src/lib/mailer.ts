import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { traced } from './tracing.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The same for every attempt to send one message (the outbox row's id): a message sent again after a crash between
   * the SMTP server's acceptance and our record of it carries the same Message-ID, which mail clients show once.
   */
  id?: string;
}

export interface Mailer {
  /** True when messages leave the machine over SMTP; false when they are only written to the log. */
  readonly delivers: boolean;
  send(mail: Mail): Promise<void>;
  /** Asks the mail server whether it would take mail (readiness); absent when nothing leaves the machine. */
  verify?(): Promise<void>;
  /** How many messages it sends at once (its SMTP connections); one when absent. */
  readonly concurrency?: number;
  /** Closes its connections to the mail server (at a stop). */
  close?(): void;
}

/**
 * nodemailer over SMTP_URL. Without SMTP the whole message, link included, goes to the log so that a newcomer on the
 * embedded default can still confirm an address or reset a password; with SMTP only the recipient and subject are logged.
 */
/**
 * An address as the info log may hold it: its first character and its domain (`a***@example.com`), enough to tell
 * messages apart, not enough to collect addresses from the log. (Without SMTP_URL the whole message goes to the log by
 * design: there the log is the mailbox.)
 */
export function maskedAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

export function createMailer(
  options: { smtpUrl: string | undefined; from: string; poolSize?: number },
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
        // Each link on a line of its own, where a person trying the shop looks for it ("Check Your Email").
        for (const link of mail.text.match(/https?:\/\/[^\s/]+\/[^\s]+/g) ?? [])
          logger.info(`link in the e-mail to ${mail.to}: ${link}`);
      },
    };
  }
  // A mail server that hangs gives up within a minute (nodemailer waits up to 2 and 10 minutes by default), well inside
  // the outbox's claim on a message, so that a slow send is never sent twice. A pool of SMTP_POOL_SIZE connections,
  // each kept open for many messages: a peak of receipts is not one TCP and TLS handshake per message.
  const poolSize = options.poolSize ?? 1;
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    pool: true,
    maxConnections: poolSize,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  const smtpServer = serverOf(options.smtpUrl);
  return {
    delivers: true,
    concurrency: poolSize,
    async send(mail) {
      const { id, ...message } = mail;
      const domain = /@([^>\s]+)/.exec(options.from)?.[1] ?? 'storefront.invalid';
      // nodemailer talks SMTP over its own sockets, which no instrumentation sees: the send is a span of its own.
      await traced('smtp send', { kind: 'client', attributes: smtpServer }, () =>
        transport.sendMail({ from: options.from, ...message, ...(id && { messageId: `<${id}@${domain}>` }) }),
      );
      logger.info({ mail: { to: maskedAddress(mail.to), subject: mail.subject } }, 'e-mail sent');
    },
    async verify() {
      await transport.verify();
    },
    close() {
      transport.close();
    },
  };
}

/** The mail server's host and port (never its user or password), for the send's span. */
function serverOf(smtpUrl: string): Record<string, string | number | undefined> {
  try {
    const url = new URL(smtpUrl);
    const port = Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587);
    return { 'server.address': url.hostname, 'server.port': port, 'network.protocol.name': 'smtp' };
  } catch {
    return { 'network.protocol.name': 'smtp' };
  }
}

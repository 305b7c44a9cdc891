import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";

export type MailMessage = { to: string; subject: string; text: string; html: string };

/** Where mail goes: SMTP, or the log when no SMTP server is configured (CONTRACT §1). */
export type Mailer = {
  send(message: MailMessage): Promise<void>;
  close(): void;
};

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  // Short timeouts: a hung SMTP server must not pin the outbox worker; it retries later.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}

/** First-run mailer: prints each mail, links included, so an account can be verified without SMTP. */
export function createLogMailer(log: FastifyBaseLogger): Mailer {
  return {
    async send(message) {
      log.info(
        { mail: { to: message.to, subject: message.subject } },
        `mail to ${message.to}: ${message.subject}\n\n${message.text}\n`,
      );
    },
    close() {},
  };
}

import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header fields (a notice's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058). */
  headers?: Record<string, string>;
};

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

// A link ends before trailing punctuation, so "…at https://x.example." yields the bare URL.
const LINK = String.raw`https?:\/\/[^\s<>"]*[^\s<>".,;:!?)'\]]`;
const LINKS = new RegExp(LINK, "g");
// Captured, so splitting a line keeps its links.
const AROUND_LINKS = new RegExp(`(${LINK})`);

/** The links in a mail's text, each once, in order. */
export function linksIn(text: string): string[] {
  return [...new Set(text.match(LINKS))];
}

/** Every link on a line of its own: a terminal then shows it whole, and a click opens just it. */
export function linksOnTheirOwnLines(text: string): string {
  return text
    .split("\n")
    .flatMap((line) =>
      linksIn(line).length === 0
        ? [line]
        : line
            .split(AROUND_LINKS)
            .map((part) => part.trim())
            .filter((part) => part !== ""),
    )
    .join("\n");
}

/**
 * First-run mailer: prints each mail, links included, so an account can be verified without SMTP.
 * The links are also a field of their own, for whoever reads the log as JSON.
 */
export function createLogMailer(log: FastifyBaseLogger): Mailer {
  return {
    async send(message) {
      log.info(
        { mail: { to: message.to, subject: message.subject, links: linksIn(message.text) } },
        `mail to ${message.to}: ${message.subject}\n\n${linksOnTheirOwnLines(message.text)}\n`,
      );
    },
    close() {},
  };
}

import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Header fields by lower-case name, unfolded, as written (List-Unsubscribe's angle brackets kept). */
  headers: Record<string, string>;
};

/** A real SMTP server for tests: mail goes over the wire exactly as in production. */
export type MailReceiver = {
  port: number;
  url: string;
  messages: ReceivedMail[];
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
};

function toReceived(parsed: ParsedMail): ReceivedMail {
  const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
  return {
    to: to?.value[0]?.address ?? "",
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    html: typeof parsed.html === "string" ? parsed.html : "",
    headers: Object.fromEntries(
      parsed.headerLines.map(({ key, line }) => [
        key,
        line
          .slice(line.indexOf(":") + 1)
          .replace(/\r?\n(?=[ \t])/g, "")
          .trim(),
      ]),
    ),
  };
}

export async function startMailReceiver(port = 0): Promise<MailReceiver> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          messages.push(toReceived(parsed));
          for (const wake of waiters) wake();
          callback();
        },
        (error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actualPort = (server.server.address() as AddressInfo).port;

  return {
    port: actualPort,
    url: `smtp://127.0.0.1:${actualPort}`,
    messages,
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (received ${messages.length})`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that starts with the given prefix. */
export function linkFrom(mail: ReceivedMail, prefix: string): string {
  const match = mail.text.match(/https?:\/\/\S+/g)?.find((url) => url.startsWith(prefix));
  if (!match) throw new Error(`no link starting with ${prefix} in mail "${mail.subject}"`);
  return match;
}

export function tokenFrom(mail: ReceivedMail, prefix: string): string {
  const token = new URL(linkFrom(mail, prefix)).searchParams.get("token");
  if (!token) throw new Error("link has no token");
  return token;
}

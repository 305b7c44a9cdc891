import { Writable } from "node:stream";
import Fastify from "fastify";
import { type PrettyOptions, prettyFactory } from "pino-pretty";
import { describe, expect, it } from "vitest";
import { loggerOptions } from "../logger";
import { verificationMail } from "../mail/account-mails";
import { createLogMailer, linksIn, linksOnTheirOwnLines } from "./mailer";

const LINK = "http://localhost:3000/verify-email?token=abc-123_XYZ";

/** The verification mail as the log mailer writes it: one JSON line, as in production without a TTY. */
async function loggedVerificationMail(): Promise<string> {
  let logged = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged += chunk;
      done();
    },
  });
  const app = Fastify({ logger: { ...(loggerOptions("info", false) as object), stream } });
  await createLogMailer(app.log).send(
    verificationMail("new@example.com", "http://localhost:3000", "abc-123_XYZ"),
  );
  await app.close();
  return logged.trim();
}

describe("the log mailer (no SMTP_URL)", () => {
  it("writes each link on a line of its own, and in a field of its own for JSON readers", async () => {
    const line = JSON.parse(await loggedVerificationMail());
    expect(line.mail).toEqual({
      to: "new@example.com",
      subject: "Verify your e-mail address for Buddy",
      links: [LINK],
    });
    const lines = line.msg.split("\n");
    expect(lines[0]).toBe("mail to new@example.com: Verify your e-mail address for Buddy");
    expect(lines).toContain(LINK);
    expect(lines).toContain("Verify e-mail address:");
  });

  it("shows the link alone on a line of the pretty log, and only once", async () => {
    const { transport } = loggerOptions("info", true) as { transport: { options: PrettyOptions } };
    const pretty = prettyFactory({ ...transport.options, colorize: false })(await loggedVerificationMail());
    const lines = pretty.split("\n");
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: mail to new@example.com: Verify your e-mail address/);
    expect(lines).toContain(LINK);
    expect(pretty.split(LINK)).toHaveLength(2);
    expect(pretty).toContain('"to": "new@example.com"');
  });

  it("moves links off lines they share with text, and leaves other lines alone", () => {
    expect(
      linksOnTheirOwnLines("Hi,\n\nOpen: https://a.example/x?y=1 or https://b.example.\n  indented\n"),
    ).toBe("Hi,\n\nOpen:\nhttps://a.example/x?y=1\nor\nhttps://b.example\n.\n  indented\n");
    expect(linksIn("see http://a.example/p, then (https://b.example/q) and http://a.example/p")).toEqual([
      "http://a.example/p",
      "https://b.example/q",
    ]);
    expect(linksIn("no links here")).toEqual([]);
  });
});

import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { startFixtureSite } from "./fixture-site";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Starts a real SMTP receiver, which writes each mail as JSON into a folder the specs read,
 * a fixture website for onboarding autofill (E2E_FIXTURE_HOST, "127.0.0.1:PORT"), and the built
 * server (dist/server/main.js) on a free port with a fresh DATA_DIR. The server may fetch private
 * addresses (OUTBOUND_ALLOW_PRIVATE), which is what lets its metadata lookup reach the fixture.
 */
export default async function globalSetup() {
  const workDir = mkdtempSync(path.join(tmpdir(), "buddy-e2e-"));
  const mailDir = path.join(workDir, "mail");
  mkdirSync(mailDir);
  let received = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
        const record = {
          to: to?.value[0]?.address ?? "",
          subject: mail.subject ?? "",
          text: mail.text ?? "",
        };
        // Written aside and renamed, so a spec never reads a half-written mail.
        const file = path.join(mailDir, `${Date.now()}-${received++}.json`);
        writeFileSync(`${file}.tmp`, JSON.stringify(record));
        renameSync(`${file}.tmp`, file);
        callback();
      }, callback);
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));

  const site = await startFixtureSite();
  const fixtureHost = `127.0.0.1:${(site.address() as AddressInfo).port}`;

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ["dist/server/main.js"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseUrl,
      DATA_DIR: path.join(workDir, "data"),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      RATE_LIMIT_PER_IP: "0",
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      OUTBOUND_ALLOW_PRIVATE: "true",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/auth`);
      if (response.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error("server did not start within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_FIXTURE_HOST = fixtureHost;

  return async () => {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    site.closeAllConnections();
    await new Promise<void>((resolve) => site.close(() => resolve()));
    rmSync(workDir, { recursive: true, force: true });
  };
}

import { afterAll, describe, expect, it } from "vitest";
import { createTestApp, signUp, type TestApp } from "../testing/app";
import { mailJobs } from "../testing/mail-jobs";
import { type MailReceiver, startMailReceiver } from "../testing/mail-receiver";
import { retryDelayMs } from "./mail-jobs";

describe("mail through the outbox", () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of cleanup.reverse()) await close();
  });

  it("accepts requests while the SMTP server is down and delivers every mail once it is back", async () => {
    // Reserve a port, then close it: nothing listens there until we start the receiver again.
    const probe = await startMailReceiver();
    const port = probe.port;
    await probe.close();

    const t: TestApp = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}`, mail: probe });
    cleanup.push(() => t.app.close().then(() => t.database.close()));

    const addresses = ["down1@example.com", "down2@example.com", "down3@example.com"];
    for (const email of addresses) await signUp(t, email);

    // The worker tried and failed: the mail waits in the outbox.
    await expect
      .poll(async () => {
        const rows = await mailJobs(t.database);
        return rows.filter((r) => r.status === "pending" && r.attempts > 0 && r.lastError).length;
      })
      .toBe(3);

    const receiver: MailReceiver = await startMailReceiver(port);
    cleanup.push(() => receiver.close());
    for (const email of addresses) await receiver.waitFor((m) => m.to === email, 15_000);

    await expect
      .poll(async () => {
        const rows = await mailJobs(t.database);
        return rows.filter((r) => r.status === "done").length;
      })
      .toBe(3);
    // Nothing lost, nothing sent twice.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.messages.map((m) => m.to).sort()).toEqual(addresses);
  });

  it("backs off exponentially up to a ceiling", () => {
    const options = { retryBaseMs: 1000, retryMaxMs: 60_000 };
    expect([1, 2, 3, 4, 10].map((n) => retryDelayMs(n, options))).toEqual([1000, 2000, 4000, 8000, 60_000]);
  });
});

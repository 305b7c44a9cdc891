import { like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationsSent } from "../../db/schema";
import {
  addMember,
  authHeader,
  createApiKey,
  createOrganization,
  createTestApp,
  onboardingForm,
  relate,
  signUpVerified,
  TEST_PUBLIC_URL,
  type TestApp,
} from "../../testing/app";
import { clickThrough, createBuddies } from "../../testing/buddies";
import type { ReceivedMail } from "../../testing/mail-receiver";
import { startWebhookReceiver, type WebhookReceiver } from "../../testing/webhook-receiver";

/** Issue 37, item 8: each notice through the outbox and a real SMTP server, to the right people. */
let t: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_DELAYS: "10m" } });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const UNSUBSCRIBE = `${TEST_PUBLIC_URL}/api/notifications/unsubscribe?token=`;

/** Every mail queued so far has been sent (or skipped): what did not arrive will not. */
async function settled(...apps: TestApp[]) {
  for (const app of apps.length ? apps : [t]) await app.app.outbox.drain();
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const mailsTo = (email: string, subject: string | RegExp) =>
  t.mail.messages.filter(
    (m) =>
      m.to === email.toLowerCase() &&
      (typeof subject === "string" ? m.subject === subject : subject.test(m.subject)),
  );

async function turnOff(headers: Record<string, string>, changes: object) {
  const response = await t.app.inject({
    method: "PATCH",
    url: "/api/notification-preferences",
    headers,
    payload: changes,
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** A notice's one-click unsubscribe, in its headers and in its text. */
function expectUnsubscribe(mail: ReceivedMail) {
  const header = mail.headers["list-unsubscribe"] ?? "";
  expect(header).toMatch(/^<http:\/\/buddy\.test\/api\/notifications\/unsubscribe\?token=[^>]+>$/);
  expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  expect(mail.text).toContain(`Unsubscribe: ${header.slice(1, -1)}`);
}

describe("A company adds you as a Buddy", () => {
  it("mails the added organization's members who want it, with Add back, and nobody else", async () => {
    const adder = await createOrganization(t, "adderco");
    const added = await createOrganization(t, "addedco");
    const teammate = await addMember(t, added.organizationId);
    const quiet = await addMember(t, added.organizationId);
    await turnOff(quiet.headers, { emailNotifications: false });

    await relate(t, adder, added.organizationId, "complement");
    const subject = `adderco added addedco as a Buddy`;
    for (const email of [added.email, teammate.email]) {
      const mail = await t.mail.waitFor((m) => m.to === email.toLowerCase() && m.subject === subject);
      expect(mail.text).toContain(`Add adderco back: ${TEST_PUBLIC_URL}/dashboard/tools?add=adderco.example`);
      expectUnsubscribe(mail);
    }
    await settled();
    expect(mailsTo(quiet.email, subject)).toHaveLength(0);
    expect(mailsTo(adder.email, /added adderco as a Buddy/)).toHaveLength(0);
    expect(mailsTo(added.email, subject)).toHaveLength(1);

    // Added back: the first adder hears of it, and there is nothing left to add back.
    await relate(t, added, adder.organizationId, "complement");
    const back = await t.mail.waitFor(
      (m) => m.to === adder.email.toLowerCase() && m.subject === "addedco added adderco as a Buddy",
    );
    expect(back.text).toContain("is among your Buddies too");
    expect(back.text).not.toContain("?add=");
  });

  it("never tells a company it was put on a block list", async () => {
    const blocker = await createOrganization(t, "blockerco");
    const blocked = await createOrganization(t, "blockedco");
    await relate(t, blocker, blocked.organizationId, "competitor");
    await settled();
    expect(mailsTo(blocked.email, /blockerco/)).toHaveLength(0);
  });
});

describe("First lead and first revenue from a partner", () => {
  it("are mailed once each per partner, even when two instances record them at once", async () => {
    const buddies = await createBuddies(t, ["firstorg", "firstpartner"]);
    const { org, partner, trackedUrl } = buddies;
    const teammate = await addMember(t, org.organizationId);
    const quiet = await addMember(t, org.organizationId);
    await turnOff(quiet.headers, { emailNotifications: false });
    const key = (await createApiKey(t, org)).key;
    const other = await createTestApp({ database: t.database, mail: t.mail });
    try {
      // One visitor per network: none of the clicks is capped.
      const clicks = [buddies.clickId];
      for (let n = 1; n < 4; n++) clicks.push(await clickThrough(t, trackedUrl, `198.51.${100 + n}.7`));
      const convert = (app: TestApp, payload: object) =>
        app.app.inject({
          method: "POST",
          url: "/api/marketing/conversion",
          headers: { "x-api-key": key },
          payload,
        });
      // Four first leads at once, on both instances: one notice.
      const leads = await Promise.all(
        clicks.map((clickId, n) => convert(n % 2 ? other : t, { clickId, type: "signup" })),
      );
      expect(leads.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
      // Then four purchases at once: one notice of the first revenue, with its amount.
      const sales = await Promise.all(
        clicks.map((clickId, n) =>
          convert(n % 2 ? t : other, { clickId, type: "purchase", value: 49.99, eventId: `evt_first_${n}` }),
        ),
      );
      expect(sales.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
      await settled(t, other);
    } finally {
      await other.close();
    }
    for (const email of [org.email, teammate.email]) {
      expect(mailsTo(email, "Your first lead from firstpartner")).toHaveLength(1);
      const revenue = mailsTo(email, "Your first revenue from firstpartner: $49.99");
      expect(revenue).toHaveLength(1);
      expectUnsubscribe(revenue[0] as ReceivedMail);
    }
    expect(mailsTo(quiet.email, /^Your first .* from firstpartner/)).toHaveLength(0);
    // The sender's side records nothing here: its people are not told of the partner's leads.
    expect(mailsTo(partner.email, /^Your first/)).toHaveLength(0);
    const keys = await t.database.db
      .select()
      .from(notificationsSent)
      .where(like(notificationsSent.key, `first-%:${org.organizationId}:${partner.organizationId}`));
    expect(keys.map((row) => row.key.split(":")[0]).sort()).toEqual(["first-lead", "first-revenue"]);
  });

  it("a first purchase that is also the first lead is one mail, a first sale", async () => {
    const { org, partner, clickId } = await createBuddies(t, ["saleorg", "salepartner"]);
    const key = (await createApiKey(t, org)).key;
    const response = await t.app.inject({
      method: "POST",
      url: "/api/marketing/conversion",
      headers: { "x-api-key": key },
      payload: { clickId, type: "purchase", value: 120, currency: "EUR" },
    });
    expect(response.statusCode, response.body).toBe(201);
    const mail = await t.mail.waitFor(
      (m) => m.to === org.email.toLowerCase() && /^Your first .* from salepartner/.test(m.subject),
    );
    expect(mail.subject).toBe("Your first sale from salepartner: €120.00");
    await settled();
    expect(mailsTo(org.email, /^Your first .* from salepartner/)).toHaveLength(1);
    expect(mailsTo(partner.email, /^Your first .* from saleorg/)).toHaveLength(0);
  });
});

describe("A webhook endpoint failing", () => {
  it("is mailed to the admins who want it once per failing streak", async () => {
    const org = await createOrganization(t, "hookfailco");
    const member = await addMember(t, org.organizationId);
    const quietAdmin = await addMember(t, org.organizationId, "admin");
    await turnOff(quietAdmin.headers, { emailNotifications: false });
    let status = 500;
    receiver.answerWith((_hit, response) => response.writeHead(status).end());
    const created = await t.app.inject({
      method: "POST",
      url: "/api/webhooks",
      headers: org.headers,
      payload: { url: receiver.url("/hookfail"), events: ["conversion.created"] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const test = async () => {
      const response = await t.app.inject({
        method: "POST",
        url: `/api/webhooks/${id}/test`,
        headers: org.headers,
      });
      expect(response.statusCode, response.body).toBe(202);
      await settled();
    };
    const subject = "A webhook endpoint of hookfailco is failing";

    await test();
    await test();
    const [mail] = mailsTo(org.email, subject);
    expect(mail?.text).toContain(receiver.url("/hookfail"));
    expectUnsubscribe(mail as ReceivedMail);
    expect(mailsTo(org.email, subject)).toHaveLength(1);
    expect(mailsTo(member.email, subject)).toHaveLength(0);
    expect(mailsTo(quietAdmin.email, subject)).toHaveLength(0);

    // A success ends the streak; the next failure starts a new one, told once again.
    status = 200;
    await test();
    status = 500;
    await test();
    await test();
    expect(mailsTo(org.email, subject)).toHaveLength(2);
  });
});

describe("A colleague waiting for approval", () => {
  it("is mailed to the admins who want it, and not to members", async () => {
    const org = await createOrganization(t, "approvalco");
    const member = await addMember(t, org.organizationId);
    const quietAdmin = await addMember(t, org.organizationId, "admin");
    await turnOff(quietAdmin.headers, { emailNotifications: false });
    const applicant = `applicant-${crypto.randomUUID().slice(0, 8)}@${org.domain}`;
    const { token } = await signUpVerified(t, applicant);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/onboarding",
      headers: authHeader(token),
      payload: onboardingForm("approvalco", "https://approvalco.example"),
    });
    expect(response.statusCode, response.body).toBe(202);
    const subject = `${applicant} asks to join approvalco on Buddy`;
    const mail = await t.mail.waitFor((m) => m.to === org.email.toLowerCase() && m.subject === subject);
    expect(mail.text).toContain(`${TEST_PUBLIC_URL}/dashboard/settings?tab=team`);
    expectUnsubscribe(mail);
    await settled();
    expect(mailsTo(member.email, subject)).toHaveLength(0);
    expect(mailsTo(quietAdmin.email, subject)).toHaveLength(0);
  });
});

describe("New competitor alerts", () => {
  const SHOP = "An e-commerce storefront platform for independent shops";

  it("tell the companies of a newcomer's category once, with Add to block list, unless they turned them off", async () => {
    const first = await createOrganization(t, "alertshopa", { description: SHOP });
    const quiet = await createOrganization(t, "alertshopb", { description: SHOP });
    await turnOff(quiet.headers, { newCompetitorAlerts: false });
    const subject = "alertshopc joined Buddy";
    await createOrganization(t, "alertshopc", { description: SHOP });
    const mail = await t.mail.waitFor((m) => m.to === first.email.toLowerCase() && m.subject === subject);
    expect(mail.text).toContain(
      `Add to block list: ${TEST_PUBLIC_URL}/dashboard/competitors?add=alertshopc.example`,
    );
    expectUnsubscribe(mail);
    await settled();
    expect(mailsTo(first.email, subject)).toHaveLength(1);
    expect(mailsTo(quiet.email, subject)).toHaveLength(0);
    // A company of another category hears nothing.
    const other = await createOrganization(t, "alertdesk", {
      description: "A help desk and ticketing tool for support teams",
    });
    await settled();
    expect(mailsTo(other.email, /joined Buddy/)).toHaveLength(0);
  });

  it("never come from a company already on the block list", async () => {
    const owner = await createOrganization(t, "blockfirst", { description: SHOP });
    const known = await t.app.inject({
      method: "POST",
      url: "/api/relationships",
      headers: owner.headers,
      payload: { name: "blocklater", url: "https://blocklater.example", type: "competitor" },
    });
    expect(known.statusCode, known.body).toBe(201);
    await createOrganization(t, "blocklater", { description: SHOP });
    await settled();
    expect(mailsTo(owner.email, "blocklater joined Buddy")).toHaveLength(0);
  });
});

describe("Security mails", () => {
  it("ignore the preferences and carry no List-Unsubscribe", async () => {
    const org = await createOrganization(t, "securityco");
    await turnOff(org.headers, {
      emailNotifications: false,
      newCompetitorAlerts: false,
      weeklyDigest: false,
    });
    const response = await t.app.inject({
      method: "POST",
      url: "/api/forgot-password",
      payload: { email: org.email },
    });
    expect(response.statusCode).toBe(200);
    const mail = await t.mail.waitFor(
      (m) => m.to === org.email.toLowerCase() && m.subject === "Reset your Buddy password",
    );
    expect(mail.headers["list-unsubscribe"]).toBeUndefined();
    const verification = t.mail.messages.find(
      (m) => m.to === org.email.toLowerCase() && /Verify/.test(m.subject),
    );
    expect(verification?.headers["list-unsubscribe"]).toBeUndefined();
    expect(verification?.text).not.toContain(UNSUBSCRIBE);
  });
});

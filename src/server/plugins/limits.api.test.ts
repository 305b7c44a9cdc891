import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createOrganization,
  createTestApp,
  STRONG_PASSWORD,
  signUpVerified,
  type TestApp,
} from "../testing/app";
import {
  CHECKS_PER_CLIENT_AT_LEAST,
  DEFAULT_PER_ADDRESS,
  RELATIONSHIP_INVITES_PER_ORGANIZATION,
} from "./limits";

// Each named limit of plugins/limits.ts through its route: exactly its allowance passes, the next
// call is 429 with Retry-After, and another key of the kind it counts keeps its own allowance. The
// webhook test events' limit is in webhooks.api.test.ts, the pixel's in
// pixel-rate-limit.api.test.ts, sign-in failures per address in auth/rate-limit.api.test.ts.

/** RATE_LIMIT_PER_IP of the app testing the per-client parts. */
const PER_CLIENT = 4;
let perClient: TestApp;
/** The defaults, with the per-client parts off as in every test app: the other parts alone count. */
let t: TestApp;

beforeAll(async () => {
  [perClient, t] = await Promise.all([
    createTestApp({ env: { RATE_LIMIT_PER_IP: String(PER_CLIENT) } }),
    createTestApp(),
  ]);
});
afterAll(async () => {
  await Promise.all([perClient.close(), t.close()]);
});

type Call = (client: string, i: number) => Promise<LightMyRequestResponse>;

/** `allowed` calls pass the limit, the next is refused, and another client is still let through. */
async function expectLimited(call: Call, allowed: number, clients: [string, string]) {
  const [busy, other] = clients;
  for (let i = 0; i < allowed; i++) {
    const response = await call(busy, i);
    expect(response.statusCode, `call ${i + 1}: ${response.body}`).not.toBe(429);
  }
  const refused = await call(busy, allowed);
  expect(refused.statusCode).toBe(429);
  expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  expect(refused.json()).toEqual({ message: expect.stringMatching(/Too many attempts/) });
  expect((await call(other, allowed + 1)).statusCode).not.toBe(429);
}

describe("per client (RATE_LIMIT_PER_IP a minute)", () => {
  const post = (url: string, payload: object) => (client: string) =>
    perClient.app.inject({ method: "POST", url, remoteAddress: client, payload });

  it("signup", async () => {
    const call: Call = (client, i) =>
      post("/api/auth", { email: `signup${i}@example.com`, password: STRONG_PASSWORD, mode: "signup" })(
        client,
      );
    await expectLimited(call, PER_CLIENT, ["203.0.113.1", "203.0.113.2"]);
  });

  it("login", async () => {
    const call: Call = (client, i) =>
      post("/api/auth", { email: `login${i}@example.com`, password: "Wrong-pass1!", mode: "login" })(client);
    await expectLimited(call, PER_CLIENT, ["203.0.113.3", "203.0.113.4"]);
  });

  it("verifyEmail", async () => {
    const call: Call = (client) => post("/api/verify-email", { token: "x".repeat(43) })(client);
    await expectLimited(call, PER_CLIENT, ["203.0.113.5", "203.0.113.6"]);
  });

  it("forgotPassword", async () => {
    const call: Call = (client, i) =>
      post("/api/forgot-password", { email: `forgot${i}@example.com` })(client);
    await expectLimited(call, PER_CLIENT, ["203.0.113.7", "203.0.113.8"]);
  });

  it("resetPassword", async () => {
    const call: Call = (client) =>
      post("/api/reset-password", { token: "x".repeat(43), password: STRONG_PASSWORD })(client);
    await expectLimited(call, PER_CLIENT, ["203.0.113.9", "203.0.113.10"]);
  });

  it("teamInvite", async () => {
    const admin = await createOrganization(perClient, "clientinviter");
    const call: Call = (client, i) =>
      perClient.app.inject({
        method: "POST",
        url: "/api/team-members/invite",
        remoteAddress: client,
        headers: admin.headers,
        payload: { email: `teammate${i}@example.com`, role: "member" },
      });
    await expectLimited(call, PER_CLIENT, ["203.0.113.11", "203.0.113.12"]);
  });

  // Site and domain checks: RATE_LIMIT_PER_IP, at least 60 a minute.
  it("metadata", async () => {
    const call: Call = (client) =>
      perClient.app.inject({ url: "/api/metadata?domain=10.0.0.7", remoteAddress: client });
    await expectLimited(call, CHECKS_PER_CLIENT_AT_LEAST, ["203.0.113.13", "203.0.113.14"]);
  });

  it("suggestions (without a session)", async () => {
    const call: Call = (client) =>
      perClient.app.inject({ url: "/api/ecosystem/suggestions?domain=not_a_domain", remoteAddress: client });
    await expectLimited(call, CHECKS_PER_CLIENT_AT_LEAST, ["203.0.113.15", "203.0.113.16"]);
  });

  it("domainCheck, one allowance for onboarding's and Settings' checks", async () => {
    const user = await signUpVerified(perClient, "checker@example.com");
    const admin = await createOrganization(perClient, "clientchecker");
    const call: Call = (client) =>
      perClient.app.inject({
        method: "POST",
        url: "/api/onboarding/domain-check",
        remoteAddress: client,
        headers: { authorization: `Bearer ${user.token}` },
      });
    await expectLimited(call, CHECKS_PER_CLIENT_AT_LEAST, ["203.0.113.17", "203.0.113.18"]);
    const settings = await perClient.app.inject({
      method: "POST",
      url: "/api/organization/domain-verification",
      remoteAddress: "203.0.113.17",
      headers: admin.headers,
    });
    expect(settings.statusCode).toBe(429);
    expect(settings.json()).toEqual({ message: expect.stringMatching(/Too many attempts/) });
  });
});

describe("per e-mail address (10 in 15 minutes)", () => {
  it.each([
    ["signup", (email: string) => ({ email, password: STRONG_PASSWORD, mode: "signup" }), "/api/auth"],
    ["forgotPassword", (email: string) => ({ email }), "/api/forgot-password"],
  ] as const)("%s", async (_name, payload, url) => {
    const call = (email: string) => t.app.inject({ method: "POST", url, payload: payload(email) });
    for (let i = 0; i < DEFAULT_PER_ADDRESS.points; i++) {
      const response = await call(i % 2 ? `${_name}@example.com` : `${_name.toUpperCase()}@EXAMPLE.COM`);
      expect(response.statusCode, response.body).not.toBe(429);
    }
    const refused = await call(`${_name}@example.com`);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await call(`other-${_name}@example.com`)).statusCode).not.toBe(429);
  });

  it("teamInvite, whichever organization invites the address", async () => {
    const [first, second] = [
      await createOrganization(t, "addrinviter"),
      await createOrganization(t, "addrinviter2"),
    ];
    const invite = (org: typeof first, email: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/team-members/invite",
        headers: org.headers,
        payload: { email, role: "member" },
      });
    for (let i = 0; i < DEFAULT_PER_ADDRESS.points; i++) {
      const response = await invite(i % 2 ? first : second, "invitee@example.com");
      expect(response.statusCode, response.body).not.toBe(429);
    }
    const refused = await invite(first, "invitee@example.com");
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await invite(first, "another-invitee@example.com")).statusCode).toBe(201);
  });
});

describe("per organization", () => {
  it("relationshipInvite: 10 in 15 minutes whatever the client, another organization its own", async () => {
    const [busy, other] = [
      await createOrganization(t, "relinviter"),
      await createOrganization(t, "relinviter2"),
    ];
    const buddyOf = async (org: typeof busy) => {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/relationships",
        headers: org.headers,
        payload: { name: "Partner", url: "partner.example.com", type: "complement" },
      });
      expect(response.statusCode, response.body).toBe(201);
      return (response.json() as { id: string }).id;
    };
    const invite = (org: typeof busy, buddy: string, client: string, i: number) =>
      t.app.inject({
        method: "POST",
        url: `/api/relationships/${buddy}/invite`,
        remoteAddress: client,
        headers: org.headers,
        payload: { email: `contact${i}@partner.example.com` },
      });
    const busyBuddy = await buddyOf(busy);
    const points = RELATIONSHIP_INVITES_PER_ORGANIZATION.points;
    for (let i = 0; i < points; i++) {
      const response = await invite(busy, busyBuddy, `198.51.100.${i + 1}`, i);
      expect(response.statusCode, response.body).toBe(200);
    }
    const refused = await invite(busy, busyBuddy, "198.51.100.99", points);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.json()).toEqual({ message: expect.stringMatching(/Too many attempts/) });
    expect((await invite(other, await buddyOf(other), "198.51.100.99", points)).statusCode).toBe(200);
  });
});

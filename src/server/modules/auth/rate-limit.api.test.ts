import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addMember,
  createOrganization,
  createTestApp,
  STRONG_PASSWORD,
  type TestApp,
} from "../../test-helpers";

const forgot = (t: TestApp, email: string) =>
  t.app.inject({ method: "POST", url: "/api/forgot-password", payload: { email } });

describe("rate limits on the account routes", () => {
  let perAddress: TestApp;
  let perClient: TestApp;
  beforeAll(async () => {
    perAddress = await createTestApp({ perAddressLimit: { points: 3, durationSeconds: 60 } });
    perClient = await createTestApp({ env: { RATE_LIMIT_PER_IP: "5" }, mail: undefined });
  });
  afterAll(async () => {
    await perAddress.close();
    await perClient.close();
  });

  it("limits one address even when the per-client limit is off, with 429 and Retry-After", async () => {
    const attempt = (email: string) =>
      perAddress.app.inject({
        method: "POST",
        url: "/api/auth",
        payload: { email, password: "Wrong-pass1!", mode: "login" },
      });
    for (let i = 0; i < 3; i++) expect((await attempt("target@example.com")).statusCode).toBe(401);
    const limited = await attempt("TARGET@example.com");
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.json().message).toMatch(/Too many attempts/);
    // Another address is not affected.
    expect((await attempt("other@example.com")).statusCode).toBe(401);
  });

  it("limits one client per minute in each route family, so one family does not lock out another", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await forgot(perClient, `user${i}@example.com`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const limited = await forgot(perClient, "user5@example.com");
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);

    // The same client still signs up and signs in: those families have their own allowance.
    const signup = await perClient.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email: "new@example.com", password: STRONG_PASSWORD, mode: "signup" },
    });
    expect(signup.statusCode).toBe(201);
    const login = await perClient.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email: "new@example.com", password: "Wrong-pass1!", mode: "login" },
    });
    expect(login.statusCode).toBe(401);
  });

  it("limits team invitations per client on their own: a refused one costs nothing, and logins stay open", async () => {
    const admin = await createOrganization(perClient, "limitco");
    const member = await addMember(perClient, admin.organizationId);
    const invite = (headers: Record<string, string>, email: string, role = "member") =>
      perClient.app.inject({
        method: "POST",
        url: "/api/team-members/invite",
        headers,
        payload: { email, role },
      });

    // A member may not invite admins: six refusals, none charged to the client's allowance.
    for (let i = 0; i < 6; i++) {
      expect((await invite(member.headers, `boss${i}@example.com`, "admin")).statusCode).toBe(403);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await invite(admin.headers, `peer${i}@example.com`)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);

    // Signing in from the same client is not affected by the invitations.
    const login = await perClient.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email: admin.email, password: STRONG_PASSWORD, mode: "login" },
    });
    expect(login.statusCode, login.body).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addMember,
  createOrganization,
  createTestApp,
  STRONG_PASSWORD,
  signUpVerified,
  type TestApp,
} from "../../testing/app";

const forgot = (t: TestApp, email: string) =>
  t.app.inject({ method: "POST", url: "/api/forgot-password", payload: { email } });
/** Sign-ins to one address, each from the client address it names. */
const signingIn =
  (t: TestApp, email: string) =>
  (client: string, password = STRONG_PASSWORD) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth",
      remoteAddress: client,
      payload: { email, password, mode: "login" },
    });

describe("rate limits on the account routes", () => {
  let perAddress: TestApp;
  let perClient: TestApp;
  let defaults: TestApp;
  beforeAll(async () => {
    perAddress = await createTestApp({ perAddressLimit: { points: 3, durationSeconds: 60 } });
    perClient = await createTestApp({ env: { RATE_LIMIT_PER_IP: "5" }, mail: undefined });
    defaults = await createTestApp();
  });
  afterAll(async () => {
    await perAddress.close();
    await perClient.close();
    await defaults.close();
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

  it("spares the owner's attempt after a typo while other clients flood the address, and holds each guesser back after two", async () => {
    const victim = await signUpVerified(perAddress, "victim@example.com");
    const login = signingIn(perAddress, "victim@example.com");
    // The total (3) is reached from two clients: the address is under attack.
    for (const client of ["203.0.113.66", "203.0.113.66", "203.0.113.67"])
      expect((await login(client, "Wrong-pass1!")).statusCode).toBe(401);
    // A client with two failures is held back, even with the right password.
    const held = await login("203.0.113.66", STRONG_PASSWORD);
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers["retry-after"])).toBeGreaterThan(0);
    expect(held.json()).toEqual({ message: expect.stringMatching(/Too many attempts/) });
    // The owner, from a client of their own, mistypes once and still gets in.
    expect((await login("198.51.100.9", "Wrong-pass1!")).statusCode).toBe(401);
    const owner = await login("198.51.100.9", STRONG_PASSWORD);
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().user.id).toBe(victim.user.id);
    // Each new client of a guesser gets its two tries, no more.
    for (const client of ["203.0.113.68", "203.0.113.69"]) {
      expect((await login(client, "Wrong-pass1!")).statusCode).toBe(401);
      expect((await login(client, "Wrong-pass1!")).statusCode).toBe(401);
      expect((await login(client, "Wrong-pass1!")).statusCode).toBe(429);
      expect((await login(client, STRONG_PASSWORD)).statusCode).toBe(429);
    }
  });

  it("lets a client that signed in before keep its own allowance while the address is under attack", async () => {
    await signUpVerified(perAddress, "known@example.com");
    const login = signingIn(perAddress, "known@example.com");
    const home = "198.51.100.30";
    expect((await login(home)).statusCode).toBe(200);
    for (const client of ["203.0.113.80", "203.0.113.81", "203.0.113.82"])
      expect((await login(client, "Wrong-pass1!")).statusCode).toBe(401);
    // Four typos from the known client, as many as its own allowance leaves, and then the password.
    for (let i = 0; i < 4; i++) expect((await login(home, "Wrong-pass1!")).statusCode).toBe(401);
    expect((await login(home)).statusCode).toBe(200);
    // Its own allowance still holds: a sixth attempt after five failures is refused.
    for (let i = 0; i < 5; i++) expect((await login(home, "Wrong-pass1!")).statusCode).toBe(401);
    expect((await login(home)).statusCode).toBe(429);
  });

  it("limits one client's failures for one address more tightly than the address's total", async () => {
    await signUpVerified(defaults, "owner@example.com");
    const login = signingIn(defaults, "owner@example.com");
    // Ten wrong passwords, as the review tried: the client is stopped after five.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await login("203.0.113.70", "Wrong-pass1!")).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    // Another client is below the total: it may still try, and the owner signs in.
    expect((await login("203.0.113.71", "Wrong-pass1!")).statusCode).toBe(401);
    expect((await login("198.51.100.10", STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it("forgets a client's failures once it signs in", async () => {
    await signUpVerified(defaults, "typo@example.com");
    const login = signingIn(defaults, "typo@example.com");
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) expect((await login("198.51.100.11", "Wrong-pass1!")).statusCode).toBe(401);
      expect((await login("198.51.100.11")).statusCode).toBe(200);
    }
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

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, STRONG_PASSWORD, type TestApp } from "../../test-helpers";

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

  it("limits one client across account routes per minute", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await perClient.app.inject({
        method: "POST",
        url: "/api/forgot-password",
        payload: { email: `user${i}@example.com` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
    const signup = await perClient.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email: "new@example.com", password: STRONG_PASSWORD, mode: "signup" },
    });
    expect(signup.statusCode).toBe(429);
    expect(signup.headers["retry-after"]).toBeDefined();
  });
});

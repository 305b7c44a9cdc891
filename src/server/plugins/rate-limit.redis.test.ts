import { once } from "node:events";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { RateLimitedError, unauthorized } from "../errors";
import { createLimits } from "./limits";
import { createLoginLimiter } from "./login-limiter";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describe("rate limits over REDIS_URL", () => {
  const clients: Redis[] = [];
  // Limiters use their in-process insurance until the connection is ready.
  const connected = () =>
    Promise.all(clients.map((client) => (client.status === "ready" ? null : once(client, "ready"))));
  afterAll(() => {
    for (const client of clients) client.disconnect();
  });

  it("shares one address's allowance between two instances", async () => {
    const address = `shared-${crypto.randomUUID()}@example.com`;
    const instances = [0, 1].map(() => {
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      clients.push(redis);
      return createLimits(
        { perClientPerMinute: 0, pixelPerClientPerMinute: 0, perAddress: { points: 3, durationSeconds: 60 } },
        redis,
      ).signup;
    });
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    await connected();
    await a.take({ client: "1.1.1.1", address });
    await b.take({ client: "2.2.2.2", address });
    await a.take({ client: "1.1.1.1", address });
    await expect(b.take({ client: "2.2.2.2", address })).rejects.toBeInstanceOf(RateLimitedError);
  });

  it("shares logins' failures and known clients between two instances", async () => {
    const address = `login-${crypto.randomUUID()}@example.com`;
    const [a, b] = [0, 1].map(() => {
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      clients.push(redis);
      return createLoginLimiter({ perAddress: { points: 3, durationSeconds: 60 }, perClient: 4, redis });
    }) as [ReturnType<typeof createLoginLimiter>, ReturnType<typeof createLoginLimiter>];
    await connected();
    const wrong = () => Promise.reject(unauthorized("Invalid email or password"));
    const right = () => Promise.resolve("signed in");

    // The owner's usual client signs in on one instance.
    await expect(a.attempt(address, "9.9.9.9", right)).resolves.toBe("signed in");
    // Three failures in total, one client's two of them on each instance: the address is under attack.
    await expect(a.attempt(address, "1.1.1.1", wrong)).rejects.toMatchObject({ statusCode: 401 });
    await expect(b.attempt(address, "1.1.1.1", wrong)).rejects.toMatchObject({ statusCode: 401 });
    await expect(a.attempt(address, "2.2.2.2", wrong)).rejects.toMatchObject({ statusCode: 401 });
    // The client with two failures is held back on either instance…
    await expect(b.attempt(address, "1.1.1.1", right)).rejects.toBeInstanceOf(RateLimitedError);
    await expect(a.attempt(address, "1.1.1.1", right)).rejects.toBeInstanceOf(RateLimitedError);
    // …the one with a single typo gets its next attempt…
    await expect(b.attempt(address, "2.2.2.2", right)).resolves.toBe("signed in");
    // …and the known client, known on the other instance too, keeps its own allowance.
    await expect(b.attempt(address, "9.9.9.9", wrong)).rejects.toMatchObject({ statusCode: 401 });
    await expect(a.attempt(address, "9.9.9.9", wrong)).rejects.toMatchObject({ statusCode: 401 });
    await expect(b.attempt(address, "9.9.9.9", wrong)).rejects.toMatchObject({ statusCode: 401 });
    await expect(b.attempt(address, "9.9.9.9", right)).resolves.toBe("signed in");
  });

  it("shares the pixel's allowance per client between two instances", async () => {
    const client = `pixel-${crypto.randomUUID()}`;
    const [a, b] = [0, 1].map(() => {
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      clients.push(redis);
      return createLimits({ perClientPerMinute: 0, pixelPerClientPerMinute: 2 }, redis).pixel;
    });
    await connected();
    await a?.take({ client });
    await b?.take({ client });
    await expect(a?.take({ client })).rejects.toBeInstanceOf(RateLimitedError);
    await expect(b?.take({ client: `${client}-other` })).resolves.toBeUndefined();
  });

  it("shares an organization's webhook tests between two instances", async () => {
    const organization = crypto.randomUUID();
    const [a, b] = [0, 1].map(() => {
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      clients.push(redis);
      return createLimits({ perClientPerMinute: 30, pixelPerClientPerMinute: 20 }, redis).webhookTest;
    });
    await connected();
    for (let i = 0; i < 10; i++) await (i % 2 ? a : b)?.take({ organization });
    await expect(a?.take({ organization })).rejects.toBeInstanceOf(RateLimitedError);
    await expect(b?.take({ organization })).rejects.toBeInstanceOf(RateLimitedError);
    await expect(b?.take({ organization: crypto.randomUUID() })).resolves.toBeUndefined();
  });
});

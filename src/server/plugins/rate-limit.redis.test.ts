import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { RateLimitedError } from "../errors";
import { createAccountRateLimiter } from "./rate-limit";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describe("rate limits over REDIS_URL", () => {
  const clients: Redis[] = [];
  afterAll(() => {
    for (const client of clients) client.disconnect();
  });

  it("shares one address's allowance between two instances", async () => {
    const address = `shared-${crypto.randomUUID()}@example.com`;
    const instances = [0, 1].map(() => {
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      clients.push(redis);
      return createAccountRateLimiter({
        perIpPerMinute: 0,
        perAddress: { points: 3, durationSeconds: 60 },
        redis,
      });
    });
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    await a.consume({ action: "login", ip: "1.1.1.1", address });
    await b.consume({ action: "login", ip: "2.2.2.2", address });
    await a.consume({ action: "login", ip: "1.1.1.1", address });
    await expect(b.consume({ action: "login", ip: "2.2.2.2", address })).rejects.toBeInstanceOf(
      RateLimitedError,
    );
  });
});

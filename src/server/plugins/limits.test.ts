import { describe, expect, it } from "vitest";
import { RateLimitedError } from "../errors";
import { type Allowance, createLimits, type LimitKind, type LimitName, limitTable } from "./limits";

// The defaults of RATE_LIMIT_PER_IP and PIXEL_RATE_LIMIT_PER_IP (config.ts).
const DEFAULTS = { perClientPerMinute: 30, pixelPerClientPerMinute: 20 };

/** The documented numbers (README, docs/operations.md#rate-limits), as [name, kind, points, seconds]. */
const DOCUMENTED: [LimitName, LimitKind, number, number][] = [
  ["signup", "client", 30, 60],
  ["signup", "address", 10, 900],
  ["login", "client", 30, 60],
  ["verifyEmail", "client", 30, 60],
  ["forgotPassword", "client", 30, 60],
  ["forgotPassword", "address", 10, 900],
  ["resetPassword", "client", 30, 60],
  ["deletionRequest", "client", 30, 60],
  ["deletionRequest", "address", 10, 900],
  ["deletionConfirm", "client", 30, 60],
  ["teamInvite", "client", 30, 60],
  ["teamInvite", "address", 10, 900],
  ["relationshipInvite", "organization", 10, 900],
  ["webhookTest", "organization", 10, 900],
  ["webhookResend", "organization", 30, 900],
  ["metadata", "client", 60, 60],
  ["domainCheck", "client", 60, 60],
  ["suggestions", "client", 60, 60],
  ["pixel", "client", 20, 60],
];

let fresh = 0;
/** A key of `kind` no other take has used. */
const unused = (kind: LimitKind) => {
  fresh++;
  if (kind === "client") return `10.${(fresh >> 16) & 255}.${(fresh >> 8) & 255}.${fresh & 255}`;
  if (kind === "address") return `someone${fresh}@example.com`;
  return crypto.randomUUID();
};

describe("the named limits", () => {
  it("are exactly the documented ones, each counted by the documented kinds of key", () => {
    const table = limitTable(DEFAULTS);
    const parts = Object.entries(table).flatMap(([name, kinds]) =>
      Object.entries(kinds as Record<LimitKind, Allowance>).map(([kind, { points, durationSeconds }]) => [
        name,
        kind,
        points,
        durationSeconds,
      ]),
    );
    expect(parts).toEqual(DOCUMENTED);
  });

  it.each(DOCUMENTED)(
    "%s, per %s: %i takes, then 429 with Retry-After, each key on its own",
    async (name, kind, points, seconds) => {
      const limit = createLimits(DEFAULTS)[name];
      // The other kinds of key this limit counts by are new at each take, so only `kind` runs out.
      const others = Object.keys(limit.allowance).filter((other) => other !== kind) as LimitKind[];
      const keyed = (value: string) =>
        Object.fromEntries([[kind, value], ...others.map((other) => [other, unused(other)])]) as never;
      // A client is counted by its /64: each take comes from another address of the same network.
      const busy = (i: number) =>
        kind === "client"
          ? `2001:db8:${name.length}:${points}::${i + 1}`
          : kind === "address"
            ? "Busy@Example.com"
            : "org-busy";
      for (let i = 0; i < points; i++) await limit.take(keyed(busy(i)));
      const refused = await limit
        .take(keyed(kind === "address" ? " busy@example.com" : busy(points)))
        .catch((e) => e);
      expect(refused).toBeInstanceOf(RateLimitedError);
      expect(refused.statusCode).toBe(429);
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(seconds);
      // Another key of the same kind keeps its whole allowance.
      await expect(limit.take(keyed(unused(kind)))).resolves.toBeUndefined();
    },
  );

  it("turns the per-client parts off at 0 and keeps the others", async () => {
    const limits = createLimits({ perClientPerMinute: 0, pixelPerClientPerMinute: 0 });
    for (let i = 0; i < 100; i++) {
      await limits.login.take({ client: "203.0.113.1" });
      await limits.metadata.take({ client: "203.0.113.1" });
      await limits.pixel.take({ client: "203.0.113.1" });
    }
    for (let i = 0; i < 10; i++)
      await limits.signup.take({ client: "203.0.113.1", address: "a@example.com" });
    await expect(
      limits.signup.take({ client: "203.0.113.1", address: "a@example.com" }),
    ).rejects.toBeInstanceOf(RateLimitedError);
  });

  it("take only the kinds of key they count by", () => {
    const limits = createLimits(DEFAULTS);
    const organizationId = crypto.randomUUID();
    // An organization id is no e-mail address: a limit per organization will not take one as such…
    // @ts-expect-error
    void limits.webhookTest.take({ address: organizationId }).catch(() => {});
    // …nor a limit per address an organization.
    // @ts-expect-error
    void limits.teamInvite.take({ client: "203.0.113.1", organization: organizationId }).catch(() => {});
    // A limit counting by two kinds wants both.
    // @ts-expect-error
    void limits.signup.take({ client: "203.0.113.1" }).catch(() => {});
  });
});

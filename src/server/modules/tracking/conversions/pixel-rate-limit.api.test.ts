import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversions } from "../../../db/schema";
import { createOrganization, createTestApp, type TestApp } from "../../../testing/app";

// The pixel needs no key, so each client address may record only so many new leads a minute.
const LIMIT = 3;
let t: TestApp;
let origin: string;
let sharer: Awaited<ReturnType<typeof createOrganization>>;
let partner: Awaited<ReturnType<typeof createOrganization>>;

/** A click id as a person's redirect issues it: the sharer's link, the partner's site. */
const click = () => t.app.tracker.clickIds.issue(sharer.organizationId, partner.organizationId, Date.now());
const pixelPath = (clickId: string, type = "signup") =>
  `/api/marketing/conversion/${clickId}?type=${type}&org=${partner.organizationId}`;
const pixelFrom = (client: string, clickId: string, type = "signup") =>
  t.app.inject({ url: pixelPath(clickId, type), remoteAddress: client });
const leadsOf = (clickId: string) =>
  t.database.db.select().from(conversions).where(eq(conversions.clickId, clickId));

beforeAll(async () => {
  t = await createTestApp({ env: { PIXEL_RATE_LIMIT_PER_IP: String(LIMIT) } });
  sharer = await createOrganization(t, "limitsharer");
  partner = await createOrganization(t, "limitpartner");
  origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t.close());

describe("the conversion pixel's limit per client", () => {
  it("answers 429 with Retry-After and {message} past the limit, records nothing more, and leaves other clients alone", async () => {
    const recorded = [click(), click(), click()];
    for (const clickId of recorded) expect((await pixelFrom("203.0.113.50", clickId)).statusCode).toBe(200);

    const refusedId = click();
    const refused = await pixelFrom("203.0.113.50", refusedId);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.json()).toEqual({ message: expect.stringMatching(/Too many attempts/) });
    expect(await leadsOf(refusedId)).toHaveLength(0);

    // A reload of a thank-you page records nothing new: it costs nothing and still gets its GIF.
    expect((await pixelFrom("203.0.113.50", recorded[0] ?? "")).statusCode).toBe(200);

    const other = await pixelFrom("203.0.113.51", refusedId);
    expect(other.statusCode).toBe(200);
    expect(await leadsOf(refusedId)).toHaveLength(1);
  });

  it("limits the pixel over HTTP alike", async () => {
    const statuses: number[] = [];
    const ids = Array.from({ length: LIMIT + 1 }, click);
    for (const clickId of ids) statuses.push((await fetch(`${origin}${pixelPath(clickId)}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await fetch(`${origin}${pixelPath(click())}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ message: expect.any(String) });
    expect(await leadsOf(ids[LIMIT] ?? "")).toHaveLength(0);
  });
});

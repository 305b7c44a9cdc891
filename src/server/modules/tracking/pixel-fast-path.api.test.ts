import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversions } from "../../db/schema";
import { minimalSecurityHeaders, securityHeaders } from "../../plugins/security-headers";
import { comparableHeaders, DECLINED, HANDED_BACK, serveFastPath } from "../../test-fast-path";
import { createOrganization, createTestApp, type TestApp } from "../../test-helpers";
import { createPixelFastPath, PIXEL_GIF } from "./pixel-fast-path";

let t: TestApp;
let fast: Awaited<ReturnType<typeof serveFastPath>>;
let sharer: Awaited<ReturnType<typeof createOrganization>>;
let partner: Awaited<ReturnType<typeof createOrganization>>;

/** A click id as a redirect issues it: the sharer's link, the partner's site. */
const click = () => t.app.tracker.clickIds.issue(sharer.organizationId, partner.organizationId, Date.now());
const pixelPath = (clickId: string, query: string) => `/api/marketing/conversion/${clickId}?${query}`;
const leadsOf = async (clickId: string) => {
  await t.app.tracker.settle();
  return t.database.db
    .select()
    .from(conversions)
    .where(and(eq(conversions.clickId, clickId)));
};

beforeAll(async () => {
  t = await createTestApp();
  sharer = await createOrganization(t, "pixelsharer");
  partner = await createOrganization(t, "pixelpartner");
  fast = await serveFastPath(
    createPixelFastPath({
      headers: minimalSecurityHeaders(securityHeaders()),
      trustProxy: false,
      closing: () => false,
      log: t.app.log,
      leads: t.app.tracker.leads,
    }),
  );
});
afterAll(async () => {
  await fast.close();
  await t.close();
});

describe("the conversion pixel's fast path", () => {
  it("records a lead once and answers the GIF with the route's headers", async () => {
    const clickId = click();
    const query = `type=purchase&org=${partner.organizationId}&value=49.5`;
    const answer = await fetch(`${fast.origin}${pixelPath(clickId, query)}`);
    expect(answer.status).toBe(200);
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(PIXEL_GIF);
    expect(answer.headers.get("content-type")).toBe("image/gif");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("content-security-policy")).toBeNull();

    // The route answers a repeat alike, and the lead is still counted once.
    const route = await t.app.inject({ url: pixelPath(clickId, query) });
    expect(route.statusCode).toBe(200);
    expect(comparableHeaders(route.headers)).toEqual(comparableHeaders(answer.headers));
    expect((await fetch(`${fast.origin}${pixelPath(clickId, query)}`)).status).toBe(200);
    const leads = await leadsOf(clickId);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ type: "purchase", value: 49.5, sourceOrgId: sharer.organizationId });
  });

  it("leaves every query the route refuses to the route, recording nothing", async () => {
    const clickId = click();
    const org = `org=${partner.organizationId}`;
    for (const query of [
      org,
      `type=nope&${org}`,
      `type=signup&${org}&value=abc`,
      `type=signup&${org}&value=-1`,
      `type=signup&type=trial&${org}`,
      `type=signup&org=${"x".repeat(101)}`,
    ]) {
      expect((await fetch(`${fast.origin}${pixelPath(clickId, query)}`)).status).toBe(DECLINED);
      expect((await t.app.inject({ url: pixelPath(clickId, query) })).statusCode).toBe(400);
    }
    expect((await fetch(`${fast.origin}/api/marketing/conversion/${clickId}`)).status).toBe(DECLINED);
    expect(await leadsOf(clickId)).toHaveLength(0);
  });

  it("hands a click id it does not prove back to the route, which answers 404", async () => {
    const clickId = click();
    // The sharer is not the click's target; a made-up id proves nothing.
    for (const path of [
      pixelPath(clickId, `type=signup&org=${sharer.organizationId}`),
      pixelPath("unknown", `type=signup&org=${partner.organizationId}`),
    ]) {
      expect((await fetch(`${fast.origin}${path}`)).status).toBe(HANDED_BACK);
      const route = await t.app.inject({ url: path });
      expect(route.statusCode).toBe(404);
      expect(route.json()).toEqual({ message: "Click id not found" });
    }
    expect(await leadsOf(clickId)).toHaveLength(0);
  });
});

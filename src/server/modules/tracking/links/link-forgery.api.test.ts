import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickEvents, pairDailyStats } from "../../../db/schema";
import { createOrganization, createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../../testing/app";
import { signTrackedLink } from "./link-signature";

/**
 * CONTRACT §5: a tracked link is followed only with the signature of every one of its
 * parameters. Each refused link must leave no trace: no event, no roll-up row, no metric.
 */
let t: TestApp;
let sharer: Awaited<ReturnType<typeof createOrganization>>;
let advertiser: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;
/** The sharer's signed link to the advertiser's first collateral. */
let link: URL;
/** Real values of the same kinds, each of which a forger could put into the link. */
let otherCollateralId: string;
let otherRelationshipId: string;

const BROWSER =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

async function createCollateral(name: string, ctaUrl: string) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/marketing/collateral",
    headers: advertiser.headers,
    payload: { name, description: "The best tool.", ctaText: "Start", ctaUrl, status: "active" },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

async function trackedUrlOf(viewer: typeof sharer, collateralId: string) {
  const list = await t.app.inject({
    url: `/api/marketing/collateral?organizationId=${advertiser.organizationId}`,
    headers: viewer.headers,
  });
  const item = list.json().find((c: { id: string }) => c.id === collateralId);
  return new URL(item.trackedUrl as string);
}

beforeAll(async () => {
  t = await createTestApp();
  sharer = await createOrganization(t, "forgesharer");
  advertiser = await createOrganization(t, "forgeadvertiser", { website: "https://advertiser.example" });
  other = await createOrganization(t, "forgeother");
  for (const org of [sharer, other]) {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/relationships",
      headers: org.headers,
      payload: { organizationId: advertiser.organizationId, type: "complement" },
    });
    expect(response.statusCode).toBeLessThan(300);
  }
  // Two ads on the same call-to-action host: the host check alone cannot tell them apart.
  const collateralId = await createCollateral("First ad", "https://www.advertiser.example/start?plan=pro");
  otherCollateralId = await createCollateral("Second ad", "https://www.advertiser.example/other");
  link = await trackedUrlOf(sharer, collateralId);
  otherRelationshipId = (await trackedUrlOf(other, collateralId)).searchParams.get("relationshipId") ?? "";
  expect(otherRelationshipId).not.toBe(link.searchParams.get("relationshipId"));
});
afterAll(() => t.close());

const follow = (url: URL, method: "GET" | "HEAD" = "GET") =>
  t.app.inject({
    method,
    url: url.pathname + url.search,
    headers: { "user-agent": BROWSER },
    remoteAddress: "203.0.113.50",
  });

/** The link with one query parameter replaced (or removed), everything else as signed. */
function withParam(name: string, value: string | null) {
  const changed = new URL(link);
  if (value === null) changed.searchParams.delete(name);
  else changed.searchParams.set(name, value);
  return changed;
}

/** Every trace a click leaves: events, roll-up rows and metrics. */
async function traces() {
  const metrics = async (org: typeof sharer) =>
    (await t.app.inject({ url: "/api/metrics/clicks", headers: org.headers })).json();
  return {
    events: (await t.database.db.select().from(clickEvents)).length,
    rollups: (await t.database.db.select().from(pairDailyStats)).length,
    sharer: await metrics(sharer),
    advertiser: await metrics(advertiser),
  };
}
const NOTHING = {
  events: 0,
  rollups: 0,
  sharer: { sent: 0, received: 0 },
  advertiser: { sent: 0, received: 0 },
};

/** The same base64url character count, one character different. */
function changeOneCharacter(sig: string, index: number) {
  const current = sig[index];
  return `${sig.slice(0, index)}${current === "A" ? "B" : "A"}${sig.slice(index + 1)}`;
}

describe("forged tracked links", () => {
  it("refuses a link on the right host whose sig has one character changed, recording nothing", async () => {
    const sig = link.searchParams.get("sig") ?? "";
    expect(sig).toMatch(/^[\w-]{43}$/);
    for (const index of [0, 21, sig.length - 1]) {
      const tampered = withParam("sig", changeOneCharacter(sig, index));
      expect(tampered.searchParams.get("url")).toBe(link.searchParams.get("url"));
      for (const method of ["GET", "HEAD"] as const) {
        const response = await follow(tampered, method);
        expect(response.statusCode).toBe(400);
        expect(response.headers.location).toBeUndefined();
      }
    }
    expect(await traces()).toEqual(NOTHING);
  });

  it.each([
    ["sourceOrgId", () => other.organizationId],
    ["relationshipId", () => otherRelationshipId],
    ["targetOrgId", () => other.organizationId],
    ["collateralId", () => otherCollateralId],
    ["url", () => "https://www.advertiser.example/other"],
  ])(
    "refuses a signed link whose %s is changed under the same sig, recording nothing",
    async (name, value) => {
      const forged = withParam(name, value());
      expect(forged.searchParams.get(name)).not.toBe(link.searchParams.get(name));
      expect(forged.searchParams.get("sig")).toBe(link.searchParams.get("sig"));
      const response = await follow(forged);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: expect.any(String) });
      expect(await traces()).toEqual(NOTHING);
    },
  );

  it("refuses a link without a sig, with an empty one or with two, recording nothing", async () => {
    const sig = link.searchParams.get("sig") ?? "";
    const twice = new URL(link);
    twice.searchParams.append("sig", sig);
    for (const forged of [withParam("sig", null), withParam("sig", ""), twice]) {
      expect((await follow(forged)).statusCode).toBe(400);
    }
    expect(await traces()).toEqual(NOTHING);
  });

  it("refuses a link missing any other parameter, recording nothing", async () => {
    for (const name of ["relationshipId", "collateralId", "sourceOrgId", "targetOrgId", "url"]) {
      expect((await follow(withParam(name, null))).statusCode).toBe(400);
    }
    expect(await traces()).toEqual(NOTHING);
  });

  it("refuses a correctly signed link whose ids are not UUIDs as stored, recording nothing", async () => {
    const fields = {
      relationshipId: link.searchParams.get("relationshipId") ?? "",
      collateralId: link.searchParams.get("collateralId") ?? "",
      sourceOrgId: sharer.organizationId,
      targetOrgId: advertiser.organizationId,
      url: link.searchParams.get("url") ?? "",
    };
    for (const [field, value] of [
      ["relationshipId", fields.relationshipId.toUpperCase()],
      ["sourceOrgId", `{${fields.sourceOrgId}}`],
      ["collateralId", fields.collateralId.replaceAll("-", "")],
      ["relationshipId", '","verified":true,"x":"'],
    ] as const) {
      const signed = signTrackedLink(TEST_PUBLIC_URL, t.config.appSecret ?? "", {
        ...fields,
        [field]: value,
      });
      expect((await follow(new URL(signed))).statusCode).toBe(400);
    }
    expect(await traces()).toEqual(NOTHING);
  });

  // The controls: the links refused above differ from followed ones only by their signature.
  it("follows the untampered link and a correctly signed link to the other ad on the same host", async () => {
    expect((await follow(link)).statusCode).toBe(302);
    const resigned = signTrackedLink(TEST_PUBLIC_URL, t.config.appSecret ?? "", {
      relationshipId: link.searchParams.get("relationshipId") ?? "",
      collateralId: otherCollateralId,
      sourceOrgId: sharer.organizationId,
      targetOrgId: advertiser.organizationId,
      url: "https://www.advertiser.example/other",
    });
    expect((await follow(new URL(resigned))).statusCode).toBe(302);
    const after = await traces();
    expect(after.events).toBe(2);
    expect(after.advertiser.received).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations } from "../../db/schema";
import { createOrganization, createTestApp, type TestApp } from "../../testing/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Tool = {
  name: string;
  organizationId: string | null;
  domain: string;
  reason: string;
  confidence: number;
  direct_integration: boolean;
  isPlatformUser: boolean;
};
type Body = {
  category: { slug: string; name: string } | null;
  competitors: Tool[];
  categories: Array<{ name: string; slug: string; tools: Tool[] }>;
  suggestions?: Array<{
    id: string;
    type: string;
    status: string;
    reason: string;
    targetOrg: { id: string; domain: string };
  }>;
};

const publicSuggestions = async (query: string) => {
  const response = await t.app.inject({ url: `/api/ecosystem/suggestions?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Body;
};
const allDomains = (body: Body) =>
  [...body.competitors, ...body.categories.flatMap((c) => c.tools)].map((x) => x.domain);

describe("suggestions for onboarding (public)", () => {
  it("finds a catalog company's category, its competitors and integrations with readable reasons", async () => {
    const body = await publicSuggestions(
      "domain=postmarkapp.com&name=Postmark&description=Transactional%20email",
    );
    expect(body.category?.slug).toBeTruthy();
    expect(body.competitors.length).toBeGreaterThan(3);
    expect(body.competitors.every((c) => c.confidence === 0.9 && c.reason.startsWith("Also "))).toBe(true);
    expect(allDomains(body)).not.toContain("postmarkapp.com");
    const direct = body.categories.flatMap((c) => c.tools).filter((tool) => tool.direct_integration);
    expect(direct.length).toBeGreaterThan(0);
    expect(direct.every((tool) => tool.confidence === 0.9 && /natively/i.test(tool.reason))).toBe(true);
    const other = body.categories.flatMap((c) => c.tools).filter((tool) => !tool.direct_integration);
    expect(other.every((tool) => tool.confidence === 0.7)).toBe(true);
  });

  it("uses the providers for direct integrations of an unknown company", async () => {
    const body = await publicSuggestions(
      "domain=newshop.example&name=Newshop&description=An%20online%20store%20builder%20for%20small%20shops&transactional=postmark&marketing=klaviyo",
    );
    const reasons = body.categories.flatMap((c) => c.tools).map((tool) => tool.reason);
    expect(reasons.some((reason) => /Klaviyo|Postmark/.test(reason))).toBe(true);
  });

  it("refuses a domain without a dot", async () => {
    const response = await t.app.inject({ url: "/api/ecosystem/suggestions?domain=localhost" });
    expect(response.statusCode).toBe(400);
  });
});

describe("dashboard suggestions", () => {
  it("stores suggestions, keeps them until refreshed, and never suggests either side of a block list", async () => {
    const shop = await createOrganization(t, "shopwise", {
      description: "An e-commerce storefront platform for independent shops",
    });
    const rival = await createOrganization(t, "shopcraft", {
      description: "An e-commerce storefront platform for independent retailers",
    });
    const get = async (headers: Record<string, string>, force = false) => {
      const response = await t.app.inject({
        url: `/api/ecosystem/suggestions?domain=x${force ? "&force=true" : ""}`,
        headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as Body;
    };
    const first = await get(shop.headers);
    expect(first.suggestions?.length).toBeGreaterThan(0);
    expect(first.suggestions?.every((s) => s.status === "suggested" && s.reason)).toBe(true);
    // The other platform shop is suggested as a competitor, with the platform badge.
    const platformPeer = first.competitors.find((c) => c.domain === "shopcraft.example");
    expect(platformPeer?.isPlatformUser).toBe(true);

    const again = await get(shop.headers);
    expect(again.suggestions?.map((s) => s.id)).toEqual(first.suggestions?.map((s) => s.id));

    // Rival blocks shop: neither sees the other any more, in stored or fresh suggestions.
    await t.app.inject({
      method: "POST",
      url: "/api/relationships",
      headers: rival.headers,
      payload: { organizationId: shop.organizationId, type: "competitor" },
    });
    const blocked = await get(shop.headers, true);
    expect(allDomains(blocked)).not.toContain("shopcraft.example");
    expect(blocked.suggestions?.map((s) => s.targetOrg.domain)).not.toContain("shopcraft.example");
    const otherSide = await get(rival.headers, true);
    expect(allDomains(otherSide)).not.toContain("shopwise.example");
  });

  it("adding a suggestion updates it (200), removing one keeps it away after a refresh", async () => {
    const org = await createOrganization(t, "deskly", {
      description: "A help desk and ticketing tool for support teams",
    });
    const url = "/api/ecosystem/suggestions?domain=deskly.example";
    const body = (await t.app.inject({ url, headers: org.headers })).json() as Body;
    const [first, second] = body.suggestions ?? [];
    expect(first && second).toBeTruthy();
    if (!first || !second) return;

    const added = await t.app.inject({
      method: "POST",
      url: "/api/relationships",
      headers: org.headers,
      payload: { organizationId: first.targetOrg.id, type: "complement" },
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ id: first.id, status: "active", type: "complement" });

    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/relationships/${second.id}`,
      headers: org.headers,
    });
    expect(removed.statusCode).toBe(204);
    const refreshed = (await t.app.inject({ url: `${url}&force=true`, headers: org.headers })).json() as Body;
    const domains = refreshed.suggestions?.map((s) => s.targetOrg.domain) ?? [];
    expect(domains).not.toContain(second.targetOrg.domain);
    // The added one is an active Buddy now, not a suggestion.
    expect(domains).not.toContain(first.targetOrg.domain);
    expect(allDomains(refreshed)).not.toContain(first.targetOrg.domain);
  });

  it("answers 401 to a bad token instead of falling back to the public answer", async () => {
    const response = await t.app.inject({
      url: "/api/ecosystem/suggestions?domain=deskly.example",
      headers: { authorization: "Bearer nope" },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe("organizations already on Buddy (onboarding's step 3)", () => {
  const SHOP = "An e-commerce storefront platform for independent shops";
  const MAILER = "An e-mail marketing tool for small shops and newsletters.";
  const ecommerce = (body: Body) => body.categories.find((group) => group.slug === "ecommerce-platforms");

  it("come first, in the first complementary category, marked as on Buddy; an unproven one never is", async () => {
    const shop = await createOrganization(t, "onbuddyshop", { description: SHOP });
    // Legacy data nobody proved: it holds the category but is not on Buddy.
    await t.database.db.insert(organizations).values({
      name: "Unproven Shop",
      domain: "unprovenshop.example",
      website: "https://unprovenshop.example",
      category: "ecommerce-platforms",
    });
    const body = await publicSuggestions(
      `domain=newmailer.example&name=Newmailer&description=${encodeURIComponent(MAILER)}`,
    );
    // Groups holding an organization on Buddy come first, and within each group those organizations.
    const flags = (tools: Tool[]) => tools.map((tool) => tool.isPlatformUser);
    const nonIncreasing = (values: boolean[]) => values.every((v, i) => i === 0 || !v || values[i - 1]);
    expect(nonIncreasing(body.categories.map((group) => flags(group.tools).some(Boolean)))).toBe(true);
    for (const group of body.categories) expect(nonIncreasing(flags(group.tools)), group.slug).toBe(true);
    const tools = ecommerce(body)?.tools ?? [];
    expect(tools[0]?.isPlatformUser).toBe(true);
    expect(tools.find((tool) => tool.domain === "onbuddyshop.example")).toMatchObject({
      isPlatformUser: true,
      organizationId: shop.organizationId,
      reason: expect.stringMatching(/already on Buddy$/),
    });
    expect(tools.some((tool) => !tool.isPlatformUser)).toBe(true);
    expect(allDomains(body)).not.toContain("unprovenshop.example");
    // Only proven organizations are marked.
    for (const tool of body.categories.flatMap((group) => group.tools))
      expect(tool.isPlatformUser, tool.domain).toBe(tool.organizationId !== null);
  });

  it("never include one the company blocked or one that blocked it", async () => {
    const mailer = await createOrganization(t, "onbuddymailer", { description: MAILER });
    const blocker = await createOrganization(t, "onbuddyblocker", { description: SHOP });
    const blocked = await createOrganization(t, "onbuddyblocked", { description: SHOP });
    const dashboard = async () => {
      const response = await t.app.inject({
        url: "/api/ecosystem/suggestions?domain=x&force=true",
        headers: mailer.headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as Body;
    };
    const before = (ecommerce(await dashboard())?.tools ?? []).filter((tool) => tool.isPlatformUser);
    expect(before.map((tool) => tool.domain)).toEqual(
      expect.arrayContaining(["onbuddyblocker.example", "onbuddyblocked.example"]),
    );
    // 200 where the other was a stored suggestion (SPEC §4 updates it), 201 otherwise.
    const block = async (org: { headers: Record<string, string> }, organizationId: string) => {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/relationships",
        headers: org.headers,
        payload: { organizationId, type: "competitor" },
      });
      expect([200, 201]).toContain(response.statusCode);
    };
    await block(blocker, mailer.organizationId);
    await block(mailer, blocked.organizationId);
    const after = await dashboard();
    expect(allDomains(after)).not.toContain("onbuddyblocker.example");
    expect(allDomains(after)).not.toContain("onbuddyblocked.example");
    expect(after.suggestions?.map((s) => s.targetOrg.domain)).not.toContain("onbuddyblocker.example");
    // The public call, which anyone may make with any domain, tells nothing of the company's
    // lists: for its domain it lists both, as it does for a stranger's.
    for (const domain of ["onbuddymailer.example", "stranger-mailer.example"]) {
      const onboarding = await publicSuggestions(
        `domain=${domain}&description=${encodeURIComponent(MAILER)}`,
      );
      expect(allDomains(onboarding)).toEqual(
        expect.arrayContaining(["onbuddyblocker.example", "onbuddyblocked.example"]),
      );
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, createTestApp, type TestApp } from "../../testing/app";

let t: TestApp;
let acme: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  t = await createTestApp();
  acme = await createOrganization(t, "acme");
  other = await createOrganization(t, "othercorp");
});
afterAll(() => t.close());

const add = (headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/relationships", headers, payload });
const list = async (headers: Record<string, string>) =>
  (await t.app.inject({ url: "/api/relationships", headers })).json() as Array<{
    id: string;
    type: string;
    status: string;
    targetOrg: { domain: string; name: string; isPlatformUser: boolean };
  }>;

describe("adding a Buddy or a competitor (SPEC §4)", () => {
  it("creates a new relationship with 201 and a new organization that is not a platform user", async () => {
    const response = await add(acme.headers, {
      name: "Widget Co",
      url: "https://www.Widget-Co.com/pricing",
      type: "complement",
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      type: "complement",
      status: "active",
      sourceOrg: { id: acme.organizationId },
      targetOrg: {
        name: "Widget Co",
        domain: "widget-co.com",
        website: "https://widget-co.com",
        isPlatformUser: false,
      },
    });
    expect(body.strengthScore).toBeGreaterThanOrEqual(0);
    expect(body.strengthScore).toBeLessThanOrEqual(10);
  });

  it.each(["widget-co.com", "http://WIDGET-CO.com", "https://www.widget-co.com/", "widget-co.com/about?x=1"])(
    "updates instead of duplicating for the variant %s",
    async (url) => {
      const response = await add(acme.headers, { name: "Widget", url, type: "competitor" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ type: "competitor", status: "active" });
      const rows = (await list(acme.headers)).filter((r) => r.targetOrg.domain === "widget-co.com");
      expect(rows).toHaveLength(1);
    },
  );

  it("revives a removed Buddy as new (201)", async () => {
    const created = (
      await add(acme.headers, { name: "Gone", url: "gone.example.org", type: "complement" })
    ).json();
    const removed = await t.app.inject({
      method: "PATCH",
      url: `/api/relationships/${created.id}`,
      headers: acme.headers,
      payload: { status: "deleted" },
    });
    expect(removed.json().status).toBe("deleted");
    expect((await list(acme.headers)).some((r) => r.id === created.id)).toBe(false);
    const again = await add(acme.headers, {
      name: "Gone",
      url: "https://gone.example.org",
      type: "complement",
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(created.id);
  });

  it("deletes for good with DELETE (Competitors page)", async () => {
    const created = (
      await add(acme.headers, { name: "Rival", url: "rival.example.net", type: "competitor" })
    ).json();
    const response = await t.app.inject({
      method: "DELETE",
      url: `/api/relationships/${created.id}`,
      headers: acme.headers,
    });
    expect(response.statusCode).toBe(204);
    const get = await t.app.inject({ url: `/api/relationships/${created.id}`, headers: acme.headers });
    expect(get.statusCode).toBe(404);
  });

  it("adds a platform organization by id and shows it as a platform user", async () => {
    const response = await add(acme.headers, { organizationId: other.organizationId, type: "complement" });
    expect(response.statusCode).toBe(201);
    expect(response.json().targetOrg).toMatchObject({ name: "othercorp", isPlatformUser: true });
  });

  it("refuses the caller's own organization, an invalid website and a missing name", async () => {
    const self = await add(acme.headers, { name: "Me", url: "acme.example", type: "complement" });
    expect(self.statusCode).toBe(400);
    const bad = await add(acme.headers, { name: "Bad", url: "not a site", type: "complement" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: "Please enter a valid website" });
    const missing = await add(acme.headers, { url: "https://ok.example.com", type: "complement" });
    expect(missing.json()).toEqual({ message: "Please enter a valid website" });
    const wrongType = await add(acme.headers, { name: "X", url: "x.example.com", type: "friend" });
    expect(wrongType.statusCode).toBe(400);
  });
});

describe("access", () => {
  it("answers 404 for another organization's relationship, on every verb", async () => {
    const mine = (
      await add(acme.headers, { name: "Private", url: "private.example.io", type: "complement" })
    ).json();
    const url = `/api/relationships/${mine.id}`;
    for (const request of [
      { method: "GET" as const, url },
      { method: "PATCH" as const, url, payload: { status: "archived" } },
      { method: "DELETE" as const, url },
      { method: "POST" as const, url: `${url}/invite`, payload: { email: "x@example.com" } },
    ]) {
      const response = await t.app.inject({ ...request, headers: other.headers });
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
    }
    expect((await t.app.inject({ url, headers: acme.headers })).json().status).toBe("active");
  });

  it("needs a session", async () => {
    expect((await t.app.inject({ url: "/api/relationships" })).statusCode).toBe(401);
  });
});

describe("the block list", () => {
  it("hides both sides from each other's organization search", async () => {
    const blocker = await createOrganization(t, "blockerinc");
    const blocked = await createOrganization(t, "blockedinc");
    const search = (headers: Record<string, string>, query: string) =>
      t.app.inject({ url: `/api/organizations/search?query=${query}`, headers });
    expect((await search(blocker.headers, "blockedinc")).json()).toHaveLength(1);
    await add(blocker.headers, { organizationId: blocked.organizationId, type: "competitor" });
    expect((await search(blocker.headers, "blockedinc")).json()).toEqual([]);
    expect((await search(blocked.headers, "blockerinc")).json()).toEqual([]);
  });

  it("search needs 3 characters and escapes wildcards", async () => {
    const short = await t.app.inject({ url: "/api/organizations/search?query=ab", headers: acme.headers });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ message: "Enter at least 3 characters to search" });
    const wildcard = await t.app.inject({
      url: "/api/organizations/search?query=%25%25%25",
      headers: acme.headers,
    });
    expect(wildcard.json()).toEqual([]);
  });
});

describe("invitations", () => {
  it("mails the contact a link to register", async () => {
    const buddy = (
      await add(acme.headers, { name: "Partner", url: "partner.example.com", type: "complement" })
    ).json();
    const response = await t.app.inject({
      method: "POST",
      url: `/api/relationships/${buddy.id}/invite`,
      headers: acme.headers,
      payload: { email: "contact@partner.example.com" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: "Invitation sent successfully" });
    const mail = await t.mail.waitFor((m) => m.to === "contact@partner.example.com");
    expect(mail.text).toContain("http://buddy.test/auth?tab=register");
    const invalid = await t.app.inject({
      method: "POST",
      url: `/api/relationships/${buddy.id}/invite`,
      headers: acme.headers,
      payload: { email: "nope" },
    });
    expect(invalid.statusCode).toBe(400);
  });
});

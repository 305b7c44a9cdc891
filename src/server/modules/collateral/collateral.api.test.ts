import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createOrganization, createTestApp, type TestApp } from "../../testing/app";

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrganization>>;
let b: Awaited<ReturnType<typeof createOrganization>>;

const valid = {
  name: "Try Acme today",
  description: "The analytics tool your customers already love.",
  ctaText: "Start free",
  ctaUrl: "https://acme.example/signup?utm_source=x",
  imageUrl: "https://acme.example/og.png",
};
/** CONTRACT §5: an ad's links are on its company's own domain. */
const on = (domain: string) => ({
  ctaUrl: `https://${domain}/signup?utm_source=x`,
  imageUrl: `https://${domain}/og.png`,
});

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrganization(t, "acmeads", { website: "https://acme.example" });
  b = await createOrganization(t, "buddyads");
  // a and b are each other's Buddies.
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    await t.app.inject({
      method: "POST",
      url: "/api/relationships",
      headers: from.headers,
      payload: { organizationId: to.organizationId, type: "complement" },
    });
  }
});
afterAll(() => t.close());

const create = (headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/marketing/collateral", headers, payload });

describe("collateral", () => {
  it("creates a draft email_cta by default and lists it, sorted active, draft, archived", async () => {
    const draft = await create(a.headers, valid);
    expect(draft.statusCode, draft.body).toBe(201);
    expect(draft.json()).toMatchObject({
      ...valid,
      type: "email_cta",
      status: "draft",
      organizationId: a.organizationId,
    });
    const active = (await create(a.headers, { ...valid, name: "Active one", status: "active" })).json();
    const archived = (await create(a.headers, { ...valid, name: "Old one", status: "archived" })).json();
    const list = (await t.app.inject({ url: "/api/marketing/collateral", headers: a.headers })).json();
    expect(list.map((c: { status: string }) => c.status)).toEqual(["active", "draft", "archived"]);
    expect(list.map((c: { id: string }) => c.id)).toEqual([active.id, draft.json().id, archived.id]);
  });

  it.each([
    [{ name: "" }, "Title is required"],
    [{ name: "x".repeat(26) }, "Title must be at most 25 characters"],
    [{ description: "d".repeat(101) }, "Description must be at most 100 characters"],
    [{ ctaText: "c".repeat(26) }, "Call to action text must be at most 25 characters"],
    [{ ctaUrl: "javascript:alert(1)" }, "Call to action URL must be a valid http(s) URL"],
    [{ ctaUrl: "" }, "Call to action URL must be a valid http(s) URL"],
    [{ imageUrl: "data:image/png;base64,xx" }, "Image URL must be a valid http(s) URL"],
    [{ status: "live" }, "Status must be draft, active or archived"],
  ])("refuses %o with '%s'", async (override, message) => {
    const response = await create(a.headers, { ...valid, ...override });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
  });

  it("publishes, archives and deletes; only the creator may", async () => {
    const item = (await create(a.headers, valid)).json();
    const url = `/api/marketing/collateral/${item.id}`;
    const publish = await t.app.inject({
      method: "PATCH",
      url,
      headers: a.headers,
      payload: { status: "active" },
    });
    expect(publish.json().status).toBe("active");
    const edit = await t.app.inject({
      method: "PATCH",
      url,
      headers: a.headers,
      payload: { ...valid, name: "Edited" },
    });
    expect(edit.json()).toMatchObject({ name: "Edited", status: "draft" });
    // Another organization: not found, and nothing changes.
    for (const request of [
      { method: "PATCH" as const, url, payload: { status: "archived" } },
      { method: "DELETE" as const, url },
    ]) {
      expect((await t.app.inject({ ...request, headers: b.headers })).statusCode).toBe(404);
    }
    const deleted = await t.app.inject({ method: "DELETE", url, headers: a.headers });
    expect(deleted.statusCode).toBe(204);
    expect((await t.app.inject({ method: "DELETE", url, headers: a.headers })).statusCode).toBe(404);
  });

  it("shows a related organization's active collateral only, and nothing to strangers", async () => {
    await create(b.headers, { ...valid, ...on("buddyads.example"), name: "B active", status: "active" });
    await create(b.headers, { ...valid, ...on("buddyads.example"), name: "B draft" });
    const seen = await t.app.inject({
      url: `/api/marketing/collateral?organizationId=${b.organizationId}`,
      headers: a.headers,
    });
    expect(seen.json().map((c: { name: string }) => c.name)).toEqual(["B active"]);
    const stranger = await createOrganization(t, "strangerads");
    const hidden = await t.app.inject({
      url: `/api/marketing/collateral?organizationId=${b.organizationId}`,
      headers: stranger.headers,
    });
    expect(hidden.statusCode).toBe(404);
  });

  it("generates collateral for a Buddy within the limits, with UTM parameters, and saves it on request", async () => {
    const preview = await t.app.inject({
      method: "POST",
      url: `/api/marketing/generate?organizationId=${b.organizationId}`,
      headers: a.headers,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const body = preview.json();
    expect(body.name.length).toBeLessThanOrEqual(25);
    expect(body.description.length).toBeLessThanOrEqual(100);
    expect(body.ctaText.length).toBeLessThanOrEqual(25);
    expect(body.ctaUrl).toBe(
      "https://buddyads.example?utm_source=acme.example&utm_medium=email&utm_campaign=buddy_partner",
    );

    const saved = await t.app.inject({
      method: "POST",
      url: `/api/marketing/generate?organizationId=${b.organizationId}&autoSave=true`,
      headers: a.headers,
    });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({ id: expect.any(String), status: "active" });
    const list = await t.app.inject({
      url: `/api/marketing/collateral?organizationId=${b.organizationId}`,
      headers: a.headers,
    });
    expect(list.json().some((c: { id: string }) => c.id === saved.json().id)).toBe(true);

    const stranger = await createOrganization(t, "strangergen");
    const refused = await t.app.inject({
      method: "POST",
      url: `/api/marketing/generate?organizationId=${b.organizationId}`,
      headers: stranger.headers,
    });
    expect(refused.statusCode).toBe(404);
  });

  it("keeps an ad written for a Buddy on the Buddy's own site", async () => {
    const written = await t.app.inject({
      method: "POST",
      url: `/api/marketing/generate?organizationId=${b.organizationId}&autoSave=true`,
      headers: a.headers,
    });
    expect(written.statusCode).toBe(201);
    const url = `/api/marketing/collateral/${written.json().id}`;
    const edit = (ctaUrl: string) =>
      t.app.inject({
        method: "PATCH",
        url,
        headers: a.headers,
        payload: { ...valid, ...on("buddyads.example"), ctaUrl },
      });

    for (const elsewhere of ["https://evil.example/login", "https://buddyads.example.evil.example/"]) {
      const refused = await edit(elsewhere);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ message: "Call to action URL must be on buddyads.example" });
    }
    const stored = await t.app.inject({
      url: `/api/marketing/collateral?organizationId=${b.organizationId}`,
      headers: a.headers,
    });
    const item = stored.json().find((c: { id: string }) => c.id === written.json().id);
    expect(item.ctaUrl).toBe(written.json().ctaUrl);

    expect((await edit("https://www.buddyads.example/pricing?plan=pro")).statusCode).toBe(200);
    expect((await edit("https://app.buddyads.example/signup")).statusCode).toBe(200);
    // One's own ad too: an organization advertises only its own site.
    const elsewhere = await create(a.headers, { ...valid, ctaUrl: "https://landing.elsewhere.example/" });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toEqual({ message: "Call to action URL must be on acme.example" });
    const image = await create(a.headers, { ...valid, imageUrl: "https://cdn.elsewhere.example/og.png" });
    expect(image.statusCode).toBe(400);
    expect(image.json()).toEqual({ message: "Image URL must be on acme.example" });
  });

  it("follows an edited call-to-action host at once, and no longer the old one", async () => {
    const item = (
      await create(b.headers, { ...valid, ...on("buddyads.example"), name: "Moving ad", status: "active" })
    ).json();
    const linkTo = async () => {
      const list = await t.app.inject({
        url: `/api/marketing/collateral?organizationId=${b.organizationId}`,
        headers: a.headers,
      });
      const tracked: string = list.json().find((c: { id: string }) => c.id === item.id).trackedUrl;
      return tracked.slice(tracked.indexOf("/api/"));
    };
    const before = await linkTo();
    const first = await t.app.inject({ url: before, headers: { "user-agent": "Mozilla/5.0 Chrome/130" } });
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toMatch(/^https:\/\/buddyads\.example\/signup\?/);

    await t.app.inject({
      method: "PATCH",
      url: `/api/marketing/collateral/${item.id}`,
      headers: b.headers,
      payload: {
        ...valid,
        ...on("buddyads.example"),
        name: "Moving ad",
        status: "active",
        ctaUrl: "https://moved.buddyads.example/start",
      },
    });
    const moved = await t.app.inject({
      url: await linkTo(),
      headers: { "user-agent": "Mozilla/5.0 Chrome/130" },
    });
    expect(moved.statusCode).toBe(302);
    expect(moved.headers.location).toMatch(/^https:\/\/moved\.buddyads\.example\/start\?bclickid=/);
    expect((await t.app.inject({ url: before })).statusCode).toBe(400);
  });

  it("stops sharing a Buddy's ads once either side blocks the other, and resumes when unblocked", async () => {
    const x = await createOrganization(t, "sharerx");
    const y = await createOrganization(t, "buddyy");
    const relate = (from: typeof x, to: typeof y, type: "complement" | "competitor") =>
      t.app.inject({
        method: "POST",
        url: "/api/relationships",
        headers: from.headers,
        payload: { organizationId: to.organizationId, type },
      });
    await relate(x, y, "complement");
    await create(y.headers, { ...valid, ...on("buddyy.example"), name: "Y active", status: "active" });
    const listed = () =>
      t.app.inject({
        url: `/api/marketing/collateral?organizationId=${y.organizationId}`,
        headers: x.headers,
      });
    const generated = () =>
      t.app.inject({
        method: "POST",
        url: `/api/marketing/generate?organizationId=${y.organizationId}`,
        headers: x.headers,
      });
    expect((await listed()).json().map((c: { name: string }) => c.name)).toEqual(["Y active"]);

    // The Buddy blocks the sharer.
    const block = (await relate(y, x, "competitor")).json();
    expect((await listed()).statusCode).toBe(404);
    expect((await generated()).statusCode).toBe(404);
    await t.app.inject({ method: "DELETE", url: `/api/relationships/${block.id}`, headers: y.headers });
    expect((await listed()).statusCode).toBe(200);

    // The sharer blocks the Buddy.
    await relate(x, y, "competitor");
    expect((await listed()).statusCode).toBe(404);
    expect((await generated()).statusCode).toBe(404);
  });

  it("lets members manage collateral (not an admin-only route)", async () => {
    const member = await addMember(t, a.organizationId);
    expect((await create(member.headers, valid)).statusCode).toBe(201);
  });
});

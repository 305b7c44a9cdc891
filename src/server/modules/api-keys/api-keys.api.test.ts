import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "../../db/schema";
import { addMember, createOrganization, createTestApp, type TestApp } from "../../testing/app";

let t: TestApp;
let admin: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createOrganization(t, "keyco");
});
afterAll(() => t.close());

describe("API keys", () => {
  it("shows the full key once, stores only its hash, lists it masked, and revokes it at once", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/api/api-keys",
      headers: admin.headers,
      payload: { name: "Production API Key" },
    });
    expect(created.statusCode).toBe(201);
    const { id, key, message } = created.json();
    expect(message).toBe("API key saved successfully");
    expect(key).toMatch(/^bk_live_[\w-]{43}$/);

    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(JSON.stringify(row)).not.toContain(key.slice(8));

    const list = (await t.app.inject({ url: "/api/api-keys", headers: admin.headers })).json();
    expect(list).toEqual([
      {
        id,
        name: "Production API Key",
        key: `bk_live_••••••••${key.slice(-4)}`,
        createdAt: expect.any(String),
        lastUsed: null,
      },
    ]);

    expect(await t.app.apiKeys.authenticate(key)).toMatchObject({ organizationId: admin.organizationId });
    await t.app.apiKeys.settled();
    const used = (await t.app.inject({ url: "/api/api-keys", headers: admin.headers })).json();
    expect(used[0].lastUsed).not.toBeNull();

    const revoked = await t.app.inject({
      method: "DELETE",
      url: `/api/api-keys/${id}`,
      headers: admin.headers,
    });
    expect(revoked.statusCode).toBe(204);
    expect(await t.app.apiKeys.authenticate(key)).toBeNull();
    expect((await t.app.inject({ url: "/api/api-keys", headers: admin.headers })).json()).toEqual([]);
  });

  it("needs a name", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/api-keys",
      headers: admin.headers,
      payload: { name: " " },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: "Key name is required" });
  });

  it("is admin-only: a member gets 403 on every API key route and nothing changes", async () => {
    const { id } = (
      await t.app.inject({
        method: "POST",
        url: "/api/api-keys",
        headers: admin.headers,
        payload: { name: "Keep" },
      })
    ).json();
    const member = await addMember(t, admin.organizationId);
    for (const request of [
      { method: "GET" as const, url: "/api/api-keys" },
      { method: "POST" as const, url: "/api/api-keys", payload: { name: "Mine" } },
      { method: "DELETE" as const, url: `/api/api-keys/${id}` },
    ]) {
      expect((await t.app.inject({ ...request, headers: member.headers })).statusCode, request.method).toBe(
        403,
      );
    }
    expect((await t.app.inject({ url: "/api/api-keys", headers: admin.headers })).json()).toHaveLength(1);
  });

  it("answers 404 for another organization's key", async () => {
    const { id } = (
      await t.app.inject({
        method: "POST",
        url: "/api/api-keys",
        headers: admin.headers,
        payload: { name: "Ours" },
      })
    ).json();
    const other = await createOrganization(t, "otherkeys");
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/api-keys/${id}`, headers: other.headers }))
        .statusCode,
    ).toBe(404);
  });
});

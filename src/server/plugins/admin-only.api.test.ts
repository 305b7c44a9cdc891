import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiKeys,
  billingAccounts,
  jobs,
  memberships,
  organizationLogos,
  organizations,
  securityLog,
  stripeConnections,
  teamInvitations,
  webhookEndpoints,
} from "../db/schema";
import { addMember, createOrganization, createTestApp, type TestApp } from "../testing/app";

let t: TestApp;
let admin: Awaited<ReturnType<typeof createOrganization>>;
let member: Awaited<ReturnType<typeof addMember>>;
let ids: { apiKey: string; teamMember: string; webhook: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await createOrganization(t, "adminonlyco");
  member = await addMember(t, admin.organizationId);
  const key = await t.app.inject({
    method: "POST",
    url: "/api/api-keys",
    headers: admin.headers,
    payload: { name: "Production API Key" },
  });
  const team = await t.app.inject({ url: "/api/team-members", headers: admin.headers });
  const adminRow = (team.json() as { id: string; user: { email: string } }[]).find(
    (row) => row.user.email === admin.email,
  );
  const endpoint = await t.app.inject({
    method: "POST",
    url: "/api/webhooks",
    headers: admin.headers,
    payload: { url: "https://hooks.adminonly.example/in", events: ["conversion.created"] },
  });
  ids = { apiKey: key.json().id, teamMember: adminRow?.id ?? "", webhook: endpoint.json().id };
});
afterAll(() => t.close());

const boundary = "----buddy-test";
const logoUpload = {
  headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  payload: `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\r\n--${boundary}--\r\n`,
};

/** CONTRACT §7: the routes only an organization's admins may call, with a request each. */
const ADMIN_ONLY = [
  { method: "PATCH", url: "/api/organization", payload: { name: "Taken over" } },
  { method: "POST", url: "/api/organization/deletion", payload: { name: "adminonlyco" } },
  { method: "POST", url: "/api/organization/logo", ...logoUpload },
  { method: "GET", url: "/api/organization/domain-verification" },
  { method: "POST", url: "/api/organization/domain-verification" },
  { method: "DELETE", url: "/api/organization/pending-domain" },
  { method: "GET", url: "/api/api-keys" },
  { method: "POST", url: "/api/api-keys", payload: { name: "Member key" } },
  { method: "DELETE", url: "/api/api-keys/:id", id: "apiKey" },
  { method: "POST", url: "/api/team-members/:id/approve", id: "teamMember" },
  { method: "PATCH", url: "/api/team-members/:id", id: "teamMember", payload: { role: "member" } },
  { method: "DELETE", url: "/api/team-members/:id", id: "teamMember" },
  { method: "GET", url: "/api/billing" },
  { method: "POST", url: "/api/billing/portal" },
  { method: "POST", url: "/api/billing/cancel" },
  { method: "POST", url: "/api/billing/reactivate" },
  {
    method: "PUT",
    url: "/api/integrations/stripe",
    payload: { webhookSecret: "whsec_memberWantsToConnect0123" },
  },
  { method: "DELETE", url: "/api/integrations/stripe" },
  { method: "GET", url: "/api/webhooks" },
  {
    method: "POST",
    url: "/api/webhooks",
    payload: { url: "https://hooks.member.example/in", events: ["conversion.created"] },
  },
  { method: "PATCH", url: "/api/webhooks/:id", id: "webhook", payload: { enabled: false } },
  { method: "DELETE", url: "/api/webhooks/:id", id: "webhook" },
  { method: "POST", url: "/api/webhooks/:id/rotate-secret", id: "webhook" },
  { method: "POST", url: "/api/webhooks/:id/test", id: "webhook" },
  { method: "GET", url: "/api/webhooks/:id/deliveries", id: "webhook" },
  // Refused before any attempt is looked up: a member learns nothing of the ids.
  { method: "POST", url: "/api/webhooks/:id/deliveries/:deliveryId/resend", id: "webhook" },
  { method: "GET", url: "/api/security-log" },
] as const;

/** What an admin-only call could change, read back for the organization. */
async function organizationState() {
  const db = t.database.db;
  const org = admin.organizationId;
  return JSON.stringify([
    await db.select().from(organizations).where(eq(organizations.id, org)),
    await db.select().from(organizationLogos).where(eq(organizationLogos.organizationId, org)),
    await db.select().from(memberships).where(eq(memberships.organizationId, org)),
    await db.select().from(apiKeys).where(eq(apiKeys.organizationId, org)),
    await db.select().from(teamInvitations).where(eq(teamInvitations.organizationId, org)),
    await db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, org)),
    await db.select().from(stripeConnections).where(eq(stripeConnections.organizationId, org)),
    await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, org)),
    await db.select().from(jobs).where(eq(jobs.kind, "webhook")),
    // A refused call is not an action: nothing in the security log either.
    await db.select().from(securityLog).where(eq(securityLog.organizationId, org)),
  ]);
}

describe("Admin-only routes", () => {
  it("lists every route declared admin-only, and nothing else", () => {
    const declared = t.app.routeAccess
      .filter((route) => route.access === "admin" && route.method !== "HEAD")
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(declared).toEqual(ADMIN_ONLY.map((route) => `${route.method} ${route.url}`).sort());
  });

  it("answers 403 to a member on each of them and changes nothing", async () => {
    const before = await organizationState();
    for (const route of ADMIN_ONLY) {
      const url = "id" in route ? route.url.replace(":id", ids[route.id]) : route.url;
      const response = await t.app.inject({
        method: route.method,
        url,
        payload: "payload" in route ? route.payload : undefined,
        headers: { ...member.headers, ...("headers" in route ? route.headers : {}) },
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(response.json().message).toBe("Only admins can do this");
    }
    expect(await organizationState()).toBe(before);
  });
});

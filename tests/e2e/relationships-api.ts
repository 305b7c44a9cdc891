import { type APIRequestContext, expect } from "@playwright/test";

export type RelationshipRecord = {
  id: string;
  type: "competitor" | "complement";
  status: string;
  targetOrg: { id: string; name: string; domain: string; isPlatformUser: boolean };
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every relationship of the account's organization except deleted ones (suggestions included). */
export async function relationshipsOf(request: APIRequestContext, token: string) {
  const response = await request.get("/api/relationships", { headers: bearer(token) });
  expect(response.status()).toBe(200);
  return (await response.json()) as RelationshipRecord[];
}

/** Adds a Buddy or a competitor through the API, by organization id or by name and website. */
export async function addRelationship(
  request: APIRequestContext,
  token: string,
  body: { type: "competitor" | "complement"; organizationId?: string; name?: string; url?: string },
) {
  const response = await request.post("/api/relationships", { headers: bearer(token), data: body });
  expect([200, 201], await response.text()).toContain(response.status());
  return (await response.json()) as RelationshipRecord;
}

/** What the add-organization control's search would list for this account. */
export async function searchOrganizations(request: APIRequestContext, token: string, query: string) {
  const response = await request.get(`/api/organizations/search?${new URLSearchParams({ query })}`, {
    headers: bearer(token),
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as Array<{ id: string; name: string; domain: string }>;
}

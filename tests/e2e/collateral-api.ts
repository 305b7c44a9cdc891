import { type APIRequestContext, expect } from "@playwright/test";

export type CollateralRecord = {
  id: string;
  name: string;
  status: "draft" | "active" | "archived";
  ctaUrl: string;
  organizationId: string;
  trackedUrl?: string | null;
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Creates collateral for the account's own organization through the API (draft unless told). */
export async function createCollateral(
  request: APIRequestContext,
  token: string,
  fields: Partial<{
    name: string;
    description: string;
    ctaText: string;
    ctaUrl: string;
    imageUrl: string | null;
    status: "draft" | "active" | "archived";
  }> = {},
) {
  // CONTRACT §5: an ad's link is on its own company's domain.
  const organization = await request.get("/api/organization", { headers: bearer(token) });
  const { domain } = (await organization.json()) as { domain: string };
  const response = await request.post("/api/marketing/collateral", {
    headers: bearer(token),
    data: {
      type: "email_cta",
      name: "Try us free",
      description: "Software used in browser tests.",
      ctaText: "Start free",
      ctaUrl: `https://${domain}/signup`,
      imageUrl: null,
      status: "draft",
      ...fields,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as CollateralRecord;
}

/** The account's metrics (`clicks` or `leads`): `{sent, received}`. */
export async function metricsOf(request: APIRequestContext, token: string, kind: "clicks" | "leads") {
  const response = await request.get(`/api/metrics/${kind}`, { headers: bearer(token) });
  expect(response.status()).toBe(200);
  return (await response.json()) as { sent: number; received: number };
}

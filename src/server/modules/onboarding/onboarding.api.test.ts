import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authHeader,
  createOrganization,
  createTestApp,
  signUpVerified,
  type TestApp,
} from "../../testing/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const base = {
  companyName: "Mailbird",
  website: "https://www.mailbird-test.io/",
  description: "An e-mail marketing tool for small shops and newsletters.",
  transactionalEmailProvider: "postmark",
  marketingEmailProvider: "mailchimp",
  selectedCompetitors: [] as string[],
  selectedComplements: [] as string[],
};

const onboard = (token: string, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/onboarding", headers: authHeader(token), payload });

describe("onboarding", () => {
  it.each([
    [{ companyName: "" }, "Company name is required"],
    [{ companyName: "A".repeat(26) }, "Company name must be at most 25 characters"],
    [{ website: "" }, "Website is required"],
    [{ website: "not a domain" }, "Must be a valid domain"],
    [{ website: "localhost" }, "Must be a valid domain"],
    [{ description: "short" }, "Please provide a brief description"],
    [{ transactionalEmailProvider: undefined }, "Transactional email provider is required"],
    [{ marketingEmailProvider: "aol" }, "Marketing email provider is required"],
  ])("refuses %o with '%s' and creates nothing", async (override, message) => {
    const { token } = await signUpVerified(t, `invalid-${crypto.randomUUID().slice(0, 6)}@example.com`);
    const response = await onboard(token, { ...base, ...override });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
    const me = await t.app.inject({ url: "/api/me", headers: authHeader(token) });
    expect(me.json().user.hasCompletedOnboarding).toBe(false);
  });

  it("creates the organization with the user as admin, blocks chosen competitors and adds chosen Buddies", async () => {
    const { token } = await signUpVerified(t, "founder@mailbird-test.io");
    const suggestions = await t.app.inject({
      url: "/api/ecosystem/suggestions?domain=mailbird-test.io&name=Mailbird&description=An%20e-mail%20marketing%20tool%20for%20newsletters&transactional=postmark&marketing=mailchimp",
    });
    expect(suggestions.statusCode).toBe(200);
    const body = suggestions.json();
    const competitor = body.competitors[0];
    const complement = body.categories[0].tools[0];
    expect(competitor).toBeDefined();
    expect(complement).toBeDefined();

    const response = await onboard(token, {
      ...base,
      selectedCompetitors: [competitor.name],
      selectedComplements: [complement.name, "Not A Real Product Name"],
      suggestions: body,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      message: "Onboarding completed successfully",
      user: { role: "admin", hasCompletedOnboarding: true, organizationId: expect.any(String) },
    });
    const headers = authHeader(token);
    const organization = (await t.app.inject({ url: "/api/organization", headers })).json();
    expect(organization).toMatchObject({
      name: "Mailbird",
      domain: "mailbird-test.io",
      isPlatformUser: true,
    });
    const relationships = (await t.app.inject({ url: "/api/relationships", headers })).json();
    expect(
      relationships
        .map((r: { type: string; targetOrg: { domain: string } }) => [r.type, r.targetOrg.domain])
        .sort(),
    ).toEqual(
      [
        ["competitor", competitor.domain],
        ["complement", complement.domain],
      ].sort(),
    );
    expect((await onboard(token, base)).statusCode).toBe(409);
  });

  it("takes over an organization others added, with every relationship they hold to it", async () => {
    const fan = await createOrganization(t, "fanclub");
    const added = await t.app.inject({
      method: "POST",
      url: "/api/relationships",
      headers: fan.headers,
      payload: { name: "Future Co", url: "futureco.example", type: "complement" },
    });
    expect(added.json().targetOrg.isPlatformUser).toBe(false);

    const { token } = await signUpVerified(t, "owner@futureco.example");
    const response = await onboard(token, {
      ...base,
      companyName: "Future Co",
      website: "https://futureco.example",
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.organizationId).toBe(added.json().targetOrg.id);
    const fanView = await t.app.inject({
      url: `/api/relationships/${added.json().id}`,
      headers: fan.headers,
    });
    expect(fanView.json().targetOrg).toMatchObject({ isPlatformUser: true, name: "Future Co" });
  });

  it("makes a second person with the same domain a pending member (202), not a new admin", async () => {
    const first = await createOrganization(t, "sharedco");
    const { token } = await signUpVerified(t, "colleague@sharedco.example");
    const response = await onboard(token, {
      ...base,
      companyName: "Other Name",
      website: "sharedco.example",
    });
    expect(response.statusCode).toBe(202);
    expect(response.json().user).toMatchObject({
      organizationId: null,
      hasCompletedOnboarding: false,
      pendingOrganization: { name: "sharedco" },
    });
    const me = await t.app.inject({ url: "/api/me", headers: authHeader(token) });
    expect(me.json().user.pendingOrganization).toEqual({ name: "sharedco" });
    // The organization is unchanged and the admin is told.
    const organization = (await t.app.inject({ url: "/api/organization", headers: first.headers })).json();
    expect(organization.name).toBe("sharedco");
    await t.mail.waitFor((m) => m.to === first.email && m.subject.includes("asks to join"));
  });

  it("needs a signed-in user", async () => {
    expect((await t.app.inject({ method: "POST", url: "/api/onboarding", payload: base })).statusCode).toBe(
      401,
    );
  });
});

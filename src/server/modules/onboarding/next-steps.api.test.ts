import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addMember,
  authHeader,
  createOrganization,
  createTestApp,
  relate,
  signUpVerified,
  type TestApp,
} from "../../testing/app";
import { clickThrough } from "../../testing/buddies";

/** The overview's "Next steps": each ticked by what the organization's data records. */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let partner: Awaited<ReturnType<typeof createOrganization>>;
const SECRET = "whsec_nextStepsSigningSecret0123456789";

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrganization(t, "nextstepsco");
  partner = await createOrganization(t, "nextstepsbuddy");
});
afterAll(() => t.close());

async function stepsOf(headers: Record<string, string>) {
  const response = await t.app.inject({ url: "/api/onboarding/next-steps", headers });
  expect(response.statusCode, response.body).toBe(200);
  const { steps } = response.json() as { steps: { id: string; done: boolean }[] };
  return Object.fromEntries(steps.map((step) => [step.id, step.done]));
}

const ad = (domain: string, status: "draft" | "active") => ({
  name: "Try it",
  description: "The best tool.",
  ctaText: "Start",
  ctaUrl: `https://${domain}/start`,
  status,
});

describe("GET /api/onboarding/next-steps", () => {
  it("lists the five steps in order, none done for a new organization", async () => {
    const response = await t.app.inject({ url: "/api/onboarding/next-steps", headers: org.headers });
    expect(response.json()).toEqual({
      steps: [
        { id: "add_buddy", done: false },
        { id: "publish_ad", done: false },
        { id: "share_ad", done: false },
        { id: "install_tracking", done: false },
        { id: "connect_stripe", done: false },
      ],
    });
  });

  it("answers 401 without a session and 403 before set-up", async () => {
    expect((await t.app.inject({ url: "/api/onboarding/next-steps" })).statusCode).toBe(401);
    const { token } = await signUpVerified(t, "nobody-yet@nextsteps-none.example");
    const early = await t.app.inject({ url: "/api/onboarding/next-steps", headers: authHeader(token) });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ message: "Complete your company set-up first" });
  });

  it("ticks add_buddy with an active Buddy, not a competitor, and only for the one who added it", async () => {
    const rival = await createOrganization(t, "nextstepsrival");
    await relate(t, org, rival.organizationId, "competitor");
    expect((await stepsOf(org.headers)).add_buddy).toBe(false);
    await relate(t, org, partner.organizationId, "complement");
    expect((await stepsOf(org.headers)).add_buddy).toBe(true);
    expect((await stepsOf(partner.headers)).add_buddy).toBe(false);
  });

  it("ticks publish_ad with an active ad of its own, not a draft", async () => {
    const post = (headers: Record<string, string>, payload: object) =>
      t.app.inject({ method: "POST", url: "/api/marketing/collateral", headers, payload });
    expect((await post(partner.headers, ad(partner.domain, "draft"))).statusCode).toBe(201);
    expect((await stepsOf(partner.headers)).publish_ad).toBe(false);
    expect((await post(partner.headers, ad(partner.domain, "active"))).statusCode).toBe(201);
    expect((await stepsOf(partner.headers)).publish_ad).toBe(true);
    expect((await stepsOf(org.headers)).publish_ad).toBe(false);
  });

  it("ticks share_ad for the sharer once a click on its link counts, connect_stripe and install_tracking for the advertiser", async () => {
    const list = await t.app.inject({
      url: `/api/marketing/collateral?organizationId=${partner.organizationId}`,
      headers: org.headers,
    });
    const [trackedUrl] = (list.json() as { trackedUrl: string }[]).map((item) => item.trackedUrl);
    expect(trackedUrl).toBeDefined();
    expect((await stepsOf(org.headers)).share_ad).toBe(false);
    const stripeClick = await clickThrough(t, trackedUrl as string, "203.0.113.31");
    expect((await stepsOf(org.headers)).share_ad).toBe(true);
    expect((await stepsOf(partner.headers)).share_ad).toBe(false);

    // Stripe's purchases tick connect_stripe; they prove nothing about the scripts.
    const connect = await t.app.inject({
      method: "PUT",
      url: "/api/integrations/stripe",
      headers: partner.headers,
      payload: { webhookSecret: SECRET },
    });
    expect(connect.statusCode).toBe(200);
    const payload = JSON.stringify({
      id: "evt_next_steps_1",
      object: "event",
      type: "checkout.session.completed",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: { id: "cs_next", client_reference_id: stripeClick, amount_total: 900, currency: "usd" },
      },
    });
    const delivered = await t.app.inject({
      method: "POST",
      url: `/api/integrations/stripe/webhook/${partner.organizationId}`,
      headers: {
        "content-type": "application/json",
        "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
      },
      payload,
    });
    expect(delivered.statusCode).toBe(200);
    const afterStripe = await stepsOf(partner.headers);
    expect(afterStripe).toMatchObject({ connect_stripe: true, install_tracking: false });
    expect((await stepsOf(org.headers)).connect_stripe).toBe(false);

    // A lead through the conversion pixel: the scripts work end to end.
    const pixelClick = await clickThrough(t, trackedUrl as string, "203.0.113.32");
    const pixel = await t.app.inject({
      url: `/api/marketing/conversion/${pixelClick}?type=signup&org=${partner.organizationId}`,
    });
    expect(pixel.statusCode).toBe(200);
    expect((await stepsOf(partner.headers)).install_tracking).toBe(true);
    // The sharer's steps are its own: it received no lead.
    expect((await stepsOf(org.headers)).install_tracking).toBe(false);
  });

  it("answers any member the same as the admin", async () => {
    const member = await addMember(t, partner.organizationId);
    expect(await stepsOf(member.headers)).toEqual(await stepsOf(partner.headers));
  });
});

describe("GET /api/onboarding/website", () => {
  it("suggests the work address's domain, nothing for free mail, and needs a session", async () => {
    const work = await signUpVerified(t, "Founder@Quillmail-Test.io");
    const suggested = await t.app.inject({ url: "/api/onboarding/website", headers: authHeader(work.token) });
    expect(suggested.statusCode).toBe(200);
    expect(suggested.json()).toEqual({ website: "quillmail-test.io" });
    for (const email of ["someone@gmail.com", "someone@yahoo.co.uk"]) {
      const { token } = await signUpVerified(t, email);
      const free = await t.app.inject({ url: "/api/onboarding/website", headers: authHeader(token) });
      expect(free.json(), email).toEqual({ website: null });
    }
    expect((await t.app.inject({ url: "/api/onboarding/website" })).statusCode).toBe(401);
  });
});

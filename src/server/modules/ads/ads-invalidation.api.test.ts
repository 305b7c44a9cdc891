import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANNELS, type ChangePublisher } from "../../db/change-notifications";
import type { DbOrTx } from "../../db/client";
import { organizations } from "../../db/schema";
import { createApiKey, createOrganization, createTestApp, type TestApp } from "../../testing/app";
import { createCollateral, deleteCollateral, updateCollateral } from "../collateral/collateral.service";
import { markDomainProven } from "../domain-control/domain-control.service";
import { updateOrganization } from "../organizations/organizations.service";
import {
  addRelationship,
  deleteRelationship,
  updateRelationship,
} from "../relationships/relationships.service";

// The eligible-ads cache is dropped only by what services publish: a service that changes what the
// Ads API serves without publishing would leave every instance serving stale ads for minutes.

let t: TestApp;
let caller: Awaited<ReturnType<typeof createOrganization>>;
let buddy: Awaited<ReturnType<typeof createOrganization>>;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  caller = await createOrganization(t, "invcaller");
  buddy = await createOrganization(t, "invbuddy");
  key = (await createApiKey(t, caller, "ads")).key;
});
afterAll(() => t.close());

const adNames = async () => {
  const seen = new Set<string>();
  for (let i = 0; i < 6; i++) {
    const response = await t.app.inject({ url: "/api/ads?limit=5", headers: { "x-api-key": key } });
    if (response.statusCode === 200) for (const ad of response.json().ads) seen.add(ad.name);
  }
  return seen;
};

const fields = (name: string) => ({
  name,
  description: `About ${name}`,
  ctaText: "Try it",
  ctaUrl: `https://${buddy.domain}/go`,
  status: "active" as const,
});

/** Publishes as the app does, and notes each channel and whether it came inside a transaction. */
function recordingPublisher() {
  const published: { channel: string; inTransaction: boolean }[] = [];
  const changes: ChangePublisher = {
    async publish(db: DbOrTx, channel, payload) {
      published.push({ channel, inTransaction: db !== t.database.db });
      await t.app.notifications.publish(db, channel, payload);
    },
  };
  return { changes, published };
}
const adsChangedInTransaction = [{ channel: CHANNELS.adsChanged, inTransaction: true }];

/** One service call through a recording publisher: it must publish adsChanged in its transaction. */
async function expectAdsChanged<T>(call: (changes: ChangePublisher) => Promise<T>): Promise<T> {
  const { changes, published } = recordingPublisher();
  const result = await call(changes);
  expect(published).toEqual(adsChangedInTransaction);
  return result;
}

describe("services publish the Ads API's changes", () => {
  it("drops the cached ads at once when collateral is archived through the service", async () => {
    const db = t.database.db;
    const { relationship } = await addRelationship(db, t.app.notifications, caller.organizationId, {
      organizationId: buddy.organizationId,
      type: "complement",
    });
    const item = await createCollateral(db, t.app.notifications, {
      organizationId: buddy.organizationId,
      createdByOrganizationId: buddy.organizationId,
      fields: fields("Archived soon"),
    });
    expect(await adNames()).toContain("Archived soon");
    await updateCollateral(db, t.app.notifications, buddy.organizationId, item.id, { status: "archived" });
    expect(await adNames()).not.toContain("Archived soon");
    await deleteRelationship(db, t.app.notifications, caller.organizationId, relationship.id);
  });

  it("publishes adsChanged inside the transaction of every change to collateral", async () => {
    const db = t.database.db;
    const item = await expectAdsChanged((changes) =>
      createCollateral(db, changes, {
        organizationId: buddy.organizationId,
        createdByOrganizationId: buddy.organizationId,
        fields: fields("Recorded"),
      }),
    );
    await expectAdsChanged((changes) =>
      updateCollateral(db, changes, buddy.organizationId, item.id, { status: "archived" }),
    );
    await expectAdsChanged((changes) => deleteCollateral(db, changes, buddy.organizationId, item.id));
  });

  it("publishes adsChanged inside the transaction of every change to relationships and the block list", async () => {
    const db = t.database.db;
    const { relationship } = await expectAdsChanged((changes) =>
      addRelationship(db, changes, caller.organizationId, {
        organizationId: buddy.organizationId,
        type: "competitor",
      }),
    );
    await expectAdsChanged((changes) =>
      updateRelationship(db, changes, caller.organizationId, relationship.id, { type: "complement" }),
    );
    await expectAdsChanged((changes) =>
      deleteRelationship(db, changes, caller.organizationId, relationship.id),
    );
  });

  it("publishes adsChanged inside the transaction of an organization's change or proof", async () => {
    const db = t.database.db;
    await expectAdsChanged((changes) =>
      updateOrganization(
        db,
        changes,
        { organizationId: buddy.organizationId, userId: buddy.userId, ipAddress: null },
        { name: "Invbuddy renamed", website: `https://${buddy.domain}`, description: "Renamed" },
      ),
    );
    // A proof is recorded, and published, only for an organization nobody had proven (legacy data).
    await db
      .update(organizations)
      .set({ domainVerifiedAt: null, domainVerificationMethod: null })
      .where(eq(organizations.id, buddy.organizationId));
    await expectAdsChanged((changes) =>
      markDomainProven(db, changes, buddy.organizationId, "email", buddy.domain, {
        userId: buddy.userId,
        ipAddress: null,
      }),
    );
  });
});

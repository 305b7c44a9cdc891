import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANNELS, type ChangePublisher } from "../../db/change-notifications";
import type { DbOrTx } from "../../db/client";
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
    const created = recordingPublisher();
    const item = await createCollateral(db, created.changes, {
      organizationId: buddy.organizationId,
      createdByOrganizationId: buddy.organizationId,
      fields: fields("Recorded"),
    });
    expect(created.published).toEqual(adsChangedInTransaction);

    const updated = recordingPublisher();
    await updateCollateral(db, updated.changes, buddy.organizationId, item.id, { status: "archived" });
    expect(updated.published).toEqual(adsChangedInTransaction);

    const deleted = recordingPublisher();
    await deleteCollateral(db, deleted.changes, buddy.organizationId, item.id);
    expect(deleted.published).toEqual(adsChangedInTransaction);
  });

  it("publishes adsChanged inside the transaction of every change to relationships and the block list", async () => {
    const db = t.database.db;
    const added = recordingPublisher();
    const { relationship } = await addRelationship(db, added.changes, caller.organizationId, {
      organizationId: buddy.organizationId,
      type: "competitor",
    });
    expect(added.published).toEqual(adsChangedInTransaction);

    const updated = recordingPublisher();
    await updateRelationship(db, updated.changes, caller.organizationId, relationship.id, {
      type: "complement",
    });
    expect(updated.published).toEqual(adsChangedInTransaction);

    const deleted = recordingPublisher();
    await deleteRelationship(db, deleted.changes, caller.organizationId, relationship.id);
    expect(deleted.published).toEqual(adsChangedInTransaction);
  });

  it("publishes adsChanged inside the transaction of an organization's change or proof", async () => {
    const db = t.database.db;
    const updated = recordingPublisher();
    await updateOrganization(
      db,
      updated.changes,
      { organizationId: buddy.organizationId, userId: buddy.userId },
      { name: "Invbuddy renamed", website: `https://${buddy.domain}`, description: "Renamed" },
    );
    expect(updated.published).toEqual(adsChangedInTransaction);

    const proven = recordingPublisher();
    await markDomainProven(db, proven.changes, buddy.organizationId, "email", buddy.domain);
    expect(proven.published).toEqual(adsChangedInTransaction);
  });
});

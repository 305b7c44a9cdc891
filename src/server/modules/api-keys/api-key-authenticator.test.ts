import { API_KEY_PREFIX } from "@shared/api-keys";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChangeNotifications } from "../../db/change-notifications";
import type { Database } from "../../db/client";
import { apiKeys, organizations } from "../../db/schema";
import { generateToken } from "../../lib/tokens";
import { openTestDatabase } from "../../testing/database";
import { createApiKeyAuthenticator } from "./api-key-authenticator";
import { createApiKey } from "./api-keys.service";

let database: Database;
let organizationId: string;
beforeAll(async () => {
  database = await openTestDatabase();
  const [row] = await database.db
    .insert(organizations)
    .values({ name: "Bounds", website: "https://bounds.example", domain: "bounds.example" })
    .returning({ id: organizations.id });
  organizationId = row?.id ?? "";
});
afterAll(() => database.close());

/** Keys made here by no one in particular (their security log entries name no actor). */
const nobody = { userId: null, ipAddress: null };

/** A listener whose liveness the test decides. */
function fakeNotifications() {
  const state = { live: true };
  const notifications: ChangeNotifications = {
    publish: async () => {},
    subscribe: () => () => {},
    isLive: () => state.live,
    close: async () => {},
  };
  return { notifications, state };
}

const authenticator = (notifications: ChangeNotifications) =>
  createApiKeyAuthenticator({
    db: database.db,
    notifications,
    log: { warn() {} },
    limits: { liveMax: 2, unknownMax: 3 },
  });

describe("the API key cache", () => {
  it("stays within its bounds whatever keys are sent", async () => {
    const auth = authenticator(fakeNotifications().notifications);
    for (let i = 0; i < 20; i++)
      expect(await auth.authenticate(`${API_KEY_PREFIX}${generateToken(32)}`)).toBeNull();
    expect(auth.cacheSizes().unknown).toBe(3);
    // Not our format: refused before the cache or the database.
    for (const key of ["nope", `${API_KEY_PREFIX}short`, `${API_KEY_PREFIX}${"a".repeat(44)}`])
      expect(await auth.authenticate(key)).toBeNull();
    expect(auth.cacheSizes().unknown).toBe(3);

    const keys = await Promise.all(
      [1, 2, 3, 4].map(() => createApiKey(database.db, organizationId, "k", nobody)),
    );
    for (const { key } of [...keys, ...keys])
      expect(await auth.authenticate(key)).toMatchObject({ organizationId });
    expect(auth.cacheSizes().live).toBe(2);
    await auth.settled();
  });

  it("is trusted only while notifications are live", async () => {
    const { notifications, state } = fakeNotifications();
    const auth = authenticator(notifications);
    const { id, key } = await createApiKey(database.db, organizationId, "k", nobody);
    expect(await auth.authenticate(key)).toMatchObject({ apiKeyId: id });

    // Revoked without a notification: the cache still answers while the listener says all is heard…
    await database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id));
    expect(await auth.authenticate(key)).toMatchObject({ apiKeyId: id });
    // …and the database does as soon as it cannot.
    state.live = false;
    expect(await auth.authenticate(key)).toBeNull();
    await auth.settled();
  });
});

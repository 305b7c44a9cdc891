import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { appState, organizations } from "../../db/schema";
import { CATALOG } from "../catalog/catalog";
import { websiteFor } from "./organizations.service";

const STATE_KEY = "catalog_seed";

/**
 * Every catalog product is an organization that is not (yet) a platform user, so search,
 * suggestions and relationships all point at rows. Runs at start-up and only writes when the
 * catalog changed; existing organizations (taken over or edited) are never overwritten.
 */
export async function seedCatalogOrganizations(db: Db): Promise<number> {
  const version = createHash("sha256").update(JSON.stringify(CATALOG.products)).digest("hex");
  const [state] = await db.select().from(appState).where(eq(appState.key, STATE_KEY)).limit(1);
  if (state?.value === version) return 0;
  const rows = CATALOG.products.map((product) => ({
    name: product.name,
    domain: product.domain,
    website: websiteFor(product.domain),
    description: product.description,
    category: product.category,
  }));
  let inserted = 0;
  for (let i = 0; i < rows.length; i += 500) {
    const result = await db
      .insert(organizations)
      .values(rows.slice(i, i + 500))
      .onConflictDoNothing({ target: organizations.domain })
      .returning({ id: organizations.id });
    inserted += result.length;
  }
  await db
    .insert(appState)
    .values({ key: STATE_KEY, value: version })
    .onConflictDoUpdate({ target: appState.key, set: { value: version, updatedAt: new Date() } });
  return inserted;
}

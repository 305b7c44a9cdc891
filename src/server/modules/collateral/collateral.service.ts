import {
  type Collateral,
  type CreateCollateralInput,
  createCollateralSchema,
  sortCollateral,
  type UpdateCollateralInput,
} from "@shared/collateral";
import { DOMAIN_MESSAGES } from "@shared/domain-verification";
import { urlIsOnDomain } from "@shared/website";
import { and, eq, inArray, isNotNull, ne, or } from "drizzle-orm";
import { CHANNELS, type ChangePublisher } from "../../db/change-notifications";
import type { DbOrTx } from "../../db/client";
import { collateral, organizations, relationships } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../errors";
import { isBlockedPair } from "../relationships/block-list";
import { signTrackedLink } from "../tracking/links/link-signature";
import { linkShareable } from "../tracking/links/live-ads";

type CollateralRow = typeof collateral.$inferSelect;

export function toCollateral(row: CollateralRow): Collateral {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    description: row.description,
    ctaText: row.ctaText,
    ctaUrl: row.ctaUrl,
    imageUrl: row.imageUrl,
    status: row.status,
    organizationId: row.organizationId,
    createdByOrganizationId: row.createdByOrganizationId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * CONTRACT §5: another organization's collateral is visible only to those related to it, and
 * (CONTRACT §4) never across a block list, whichever side keeps it: a Buddy that blocks the
 * caller stops being shared by it at once. Returns the caller's relationship id (null for its own
 * organization).
 */
export async function assertRelated(
  db: DbOrTx,
  organizationId: string,
  otherId: string,
): Promise<string | null> {
  if (otherId === organizationId) return null;
  const [row] = await db
    .select({ id: relationships.id })
    .from(relationships)
    .where(
      and(
        eq(relationships.sourceOrgId, organizationId),
        eq(relationships.targetOrgId, otherId),
        ne(relationships.status, "deleted"),
      ),
    )
    .limit(1);
  if (!row || (await isBlockedPair(db, organizationId, otherId))) throw notFound("Organization not found");
  return row.id;
}

/**
 * CONTRACT §5: an ad sends readers to its company's own site. Its call-to-action URL (and its
 * image) must be on the advertised organization's domain or a subdomain, whoever writes it:
 * otherwise an ad, and its tracked links, could point anywhere under a company's name.
 */
async function assertOnOrganizationSite(
  db: DbOrTx,
  organizationId: string,
  urls: { ctaUrl?: string; imageUrl?: string | null },
) {
  const [org] = await db
    .select({ domain: organizations.domain })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  if (!org) throw notFound("Organization not found");
  if (urls.ctaUrl !== undefined && !urlIsOnDomain(urls.ctaUrl, org.domain))
    throw badRequest(`Call to action URL must be on ${org.domain}`);
  if (urls.imageUrl && !urlIsOnDomain(urls.imageUrl, org.domain))
    throw badRequest(`Image URL must be on ${org.domain}`);
}

/** CONTRACT §4: only an organization whose domain is proven publishes ads. */
async function assertMayPublish(db: DbOrTx, authorId: string, status: string | undefined) {
  if (status !== "active") return;
  const [author] = await db
    .select({ domain: organizations.domain, verifiedAt: organizations.domainVerifiedAt })
    .from(organizations)
    .where(eq(organizations.id, authorId))
    .limit(1);
  if (!author) throw notFound("Organization not found");
  if (!author.verifiedAt) throw forbidden(DOMAIN_MESSAGES.publishNeedsProof(author.domain));
}

/**
 * Without `of`: the caller's own collateral. With `of` (a related organization): the ads that
 * organization published (active), plus those the caller wrote for it.
 */
export async function listCollateral(
  db: DbOrTx,
  organizationId: string,
  of?: string,
  signing?: { publicUrl: string; secret: string },
): Promise<Collateral[]> {
  const target = of ?? organizationId;
  const relationshipId = await assertRelated(db, organizationId, target);
  // CONTRACT §4: an organization whose domain is not proven publishes nothing to its partners.
  const provenIds = new Set(
    (
      await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(
          and(inArray(organizations.id, [organizationId, target]), isNotNull(organizations.domainVerifiedAt)),
        )
    ).map((org) => org.id),
  );
  const published = provenIds.has(target)
    ? and(eq(collateral.createdByOrganizationId, target), eq(collateral.status, "active"))
    : undefined;
  const rows = await db
    .select()
    .from(collateral)
    .where(
      and(
        eq(collateral.organizationId, target),
        target === organizationId
          ? eq(collateral.createdByOrganizationId, organizationId)
          : or(eq(collateral.createdByOrganizationId, organizationId), published),
      ),
    )
    .orderBy(collateral.createdAt);
  const items = rows.map(toCollateral);
  if (!relationshipId || !signing) return sortCollateral(items);
  // Each live Buddy ad carries the caller's own tracked link, ready to shorten and share; a draft
  // gets none, since a click on it would count for nothing (tracking/links/live-ads.ts).
  return sortCollateral(
    items.map((item) =>
      linkShareable({ status: item.status, authorProven: provenIds.has(item.createdByOrganizationId) })
        ? {
            ...item,
            trackedUrl: signTrackedLink(signing.publicUrl, signing.secret, {
              relationshipId,
              collateralId: item.id,
              sourceOrgId: organizationId,
              targetOrgId: target,
              url: item.ctaUrl,
            }),
          }
        : item,
    ),
  );
}

export async function createCollateral(
  db: DbOrTx,
  changes: ChangePublisher,
  input: { organizationId: string; createdByOrganizationId: string; fields: CreateCollateralInput },
): Promise<Collateral> {
  const fields = createCollateralSchema.parse(input.fields);
  await assertOnOrganizationSite(db, input.organizationId, fields);
  await assertMayPublish(db, input.createdByOrganizationId, fields.status);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(collateral)
      .values({
        ...fields,
        imageUrl: fields.imageUrl || null,
        organizationId: input.organizationId,
        createdByOrganizationId: input.createdByOrganizationId,
      })
      .returning();
    if (!row) throw new Error("collateral insert returned nothing");
    await changes.publish(tx, CHANNELS.adsChanged);
    return toCollateral(row);
  });
}

/** Only the creator may change or delete it (CONTRACT §5); anyone else gets 404. */
const createdBy = (organizationId: string, id: string) =>
  and(eq(collateral.id, id), eq(collateral.createdByOrganizationId, organizationId));

export async function updateCollateral(
  db: DbOrTx,
  changes: ChangePublisher,
  organizationId: string,
  id: string,
  input: UpdateCollateralInput,
): Promise<Collateral> {
  const mine = createdBy(organizationId, id);
  const [current] = await db
    .select({ organizationId: collateral.organizationId })
    .from(collateral)
    .where(mine);
  if (!current) throw notFound("Collateral not found");
  if ("ctaUrl" in input) await assertOnOrganizationSite(db, current.organizationId, input);
  await assertMayPublish(db, organizationId, input.status);
  const fields = "name" in input ? { ...input, imageUrl: input.imageUrl || null } : { status: input.status };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(collateral)
      .set({ ...fields, updatedAt: new Date() })
      .where(mine)
      .returning();
    if (!row) throw notFound("Collateral not found");
    await changes.publish(tx, CHANNELS.adsChanged);
    return toCollateral(row);
  });
}

export async function deleteCollateral(
  db: DbOrTx,
  changes: ChangePublisher,
  organizationId: string,
  id: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(collateral)
      .where(createdBy(organizationId, id))
      .returning({ id: collateral.id });
    if (!row) throw notFound("Collateral not found");
    await changes.publish(tx, CHANNELS.adsChanged);
  });
}

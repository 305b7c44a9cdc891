import type { CollateralStatus } from "@shared/collateral";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { collateral, organizations } from "../../../db/schema";
import { badRequest } from "../../../errors";

/**
 * Whose links count (docs/tracking.md). The ad's author must have proven its domain, the rule the
 * Ads API serves by: otherwise nobody answers for the ad, and its clicks and leads are anyone's
 * claim. The advertised company's own ads are written by it; a Buddy's ads for a company that has
 * not joined (a catalog entry) are written, and answered for, by the Buddy.
 */
export type AdStanding = { status: CollateralStatus; authorProven: boolean };

/**
 * A draft is not out (yet, or any more): a link to it was leaked or handed out before the ad was
 * taken back. An archived ad's links are already in sent newsletters: they still count, but
 * nobody gets a new one.
 */
export const linkCounts = (ad: AdStanding) => ad.authorProven && ad.status !== "draft";
export const linkShareable = (ad: AdStanding) => ad.authorProven && ad.status === "active";

export const NOT_SHAREABLE = {
  inactive: "Only an active ad's link can be shortened",
  unproven: "Only an ad whose author has verified its domain can be shortened",
} as const;

/** A new short link is a new share: only for an ad that is live now. */
export async function assertShareable(db: DbOrTx, collateralId: string): Promise<void> {
  const [ad] = await db
    .select({ status: collateral.status, authorVerifiedAt: organizations.domainVerifiedAt })
    .from(collateral)
    .innerJoin(organizations, eq(organizations.id, collateral.createdByOrganizationId))
    .where(eq(collateral.id, collateralId))
    .limit(1);
  if (ad?.status !== "active") throw badRequest(NOT_SHAREABLE.inactive);
  if (ad.authorVerifiedAt === null) throw badRequest(NOT_SHAREABLE.unproven);
}

import {
  COLLATERAL_CTA_TEXT_MAX,
  COLLATERAL_TITLE_MAX,
  cutDescription,
  type GeneratedCollateral,
  withUtm,
} from "@shared/collateral";
import { cutCompanyName } from "@shared/onboarding";
import { logoPath } from "@shared/organizations";
import { inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { organizations } from "../../db/schema";
import type { SiteMetadata, SiteMetadataService } from "../../lib/site-metadata";
import { getOrganization, type OrganizationRow } from "../organizations/organizations.service";
import { blockedOrganizationIds } from "../relationships/block-list";

const UTM_CAMPAIGN = "buddy_partner";

/** Names and domains of everyone on either side of the caller's block list, lower-cased. */
async function blockedTerms(db: DbOrTx, organizationId: string): Promise<string[]> {
  const ids = await blockedOrganizationIds(db, organizationId);
  if (ids.length === 0) return [];
  const rows = await db
    .select({ name: organizations.name, domain: organizations.domain })
    .from(organizations)
    .where(inArray(organizations.id, ids));
  return rows
    .flatMap((row) => [row.name, row.domain])
    .map((term) => term.toLowerCase())
    .filter((t) => t.length >= 3);
}

export function mentionsAny(texts: string[], terms: string[]): boolean {
  const haystack = texts.join(" \n ").toLowerCase();
  return terms.some((term) => haystack.includes(term));
}

/**
 * The built-in generator: copy from the target's own site (its name, description and og:image),
 * within SPEC §5's limits, and a UTM-tagged call-to-action URL crediting the sharer.
 */
export function draftFromMetadata(
  target: Pick<OrganizationRow, "name" | "website" | "description" | "domain" | "logoVersion">,
  sharer: Pick<OrganizationRow, "domain">,
  metadata: SiteMetadata,
  publicUrl: string,
): GeneratedCollateral {
  const name =
    cutCompanyName(target.name, COLLATERAL_TITLE_MAX) ||
    cutCompanyName(metadata.siteName, COLLATERAL_TITLE_MAX);
  const description = cutDescription(
    metadata.description || target.description || `Discover ${target.name}.`,
  );
  const tryText = `Try ${target.name}`;
  const logo = target.logoVersion ? `${publicUrl}${logoPath(target.domain, target.logoVersion)}` : null;
  return {
    type: "email_cta",
    name,
    description,
    ctaText: tryText.length <= COLLATERAL_CTA_TEXT_MAX ? tryText : "Learn more",
    ctaUrl: withUtm(target.website, sharer.domain, UTM_CAMPAIGN),
    imageUrl: metadata.image || logo,
    status: "draft",
  };
}

export type CollateralWriter = (input: {
  target: OrganizationRow;
  sharer: OrganizationRow;
  draft: GeneratedCollateral;
}) => Promise<GeneratedCollateral>;

/**
 * Generates collateral advertising `targetId` for the caller. An AI writer (when configured) may
 * rewrite the copy; whatever it returns must pass the same limits and must not name anyone on
 * either side of the caller's block list, else the built-in draft is used.
 */
export async function generateCollateral(
  deps: { db: DbOrTx; siteMetadata: SiteMetadataService; publicUrl: string; writer?: CollateralWriter },
  input: { organizationId: string; targetId: string },
): Promise<GeneratedCollateral> {
  const [target, sharer] = await Promise.all([
    getOrganization(deps.db, input.targetId),
    getOrganization(deps.db, input.organizationId),
  ]);
  const metadata = await deps.siteMetadata
    .getMetadata(target.domain)
    .catch((): SiteMetadata => ({ siteName: "", description: "", image: "" }));
  const terms = await blockedTerms(deps.db, input.organizationId);
  let draft = draftFromMetadata(target, sharer, metadata, deps.publicUrl);
  if (mentionsAny([draft.description], terms))
    draft = { ...draft, description: cutDescription(`Discover ${target.name}.`) };
  if (!deps.writer) return draft;
  const written = await deps.writer({ target, sharer, draft });
  return mentionsAny([written.name, written.description, written.ctaText, written.ctaUrl], terms)
    ? draft
    : written;
}

import type { CollateralStatus } from "@shared/collateral";

/** SPEC §4: the card's toggle archives an active item and publishes (activates) anything else. */
export function toggledStatus(status: CollateralStatus): CollateralStatus {
  return status === "active" ? "archived" : "active";
}

/** The toggle's label names what it will do: 'Archive' on active items, else 'Publish'. */
export function toggleLabel(status: CollateralStatus): "Archive" | "Publish" {
  return status === "active" ? "Archive" : "Publish";
}

/**
 * A draft is the creator's alone: Buddies never see it, in the app or the Ads API, until it is
 * published (issue 37: a new ad is a draft, and nothing said so).
 */
export const DRAFT_HINT = "Saved as a draft: Buddies see it once it is published.";
export const DRAFT_NOTE = "This ad is a draft: Buddies see it once it is published.";

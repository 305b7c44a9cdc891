import type { CollateralStatus } from "@shared/collateral";

/** SPEC §4: the card's toggle archives an active item and publishes (activates) anything else. */
export function toggledStatus(status: CollateralStatus): CollateralStatus {
  return status === "active" ? "archived" : "active";
}

/** The toggle's label names what it will do: 'Archive' on active items, else 'Publish'. */
export function toggleLabel(status: CollateralStatus): "Archive" | "Publish" {
  return status === "active" ? "Archive" : "Publish";
}

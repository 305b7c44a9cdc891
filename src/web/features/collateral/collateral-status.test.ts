import { describe, expect, it } from "vitest";
import { toggledStatus, toggleLabel } from "@/features/collateral/collateral-status";

describe("the Archive/Publish toggle (SPEC §4)", () => {
  it("archives active collateral and publishes anything else", () => {
    expect([toggleLabel("active"), toggledStatus("active")]).toEqual(["Archive", "archived"]);
    expect([toggleLabel("draft"), toggledStatus("draft")]).toEqual(["Publish", "active"]);
    expect([toggleLabel("archived"), toggledStatus("archived")]).toEqual(["Publish", "active"]);
  });
});

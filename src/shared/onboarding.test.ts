import { describe, expect, it } from "vitest";
import { cutCompanyName } from "./onboarding";

describe("cutCompanyName (SPEC §5 autofill)", () => {
  it.each([
    ["Acme Corporation International Holdings", "Acme Corporation"],
    ["Exactly twenty-five chars", "Exactly twenty-five chars"],
    ["Short", "Short"],
    ["  Acme   Inc  ", "Acme Inc"],
    ["abcdefghijklmnopqrstuvwxyz1234", "abcdefghijklmnopqrstuvwxy"],
    ["Acme Corporation Internat ional", "Acme Corporation Internat"],
    ["", ""],
  ])("%j → %j", (input, expected) => {
    expect(cutCompanyName(input)).toBe(expected);
    expect(cutCompanyName(input).length).toBeLessThanOrEqual(25);
  });

  it("takes another maximum", () => {
    expect(cutCompanyName("Acme Widgets Ltd", 10)).toBe("Acme");
  });
});

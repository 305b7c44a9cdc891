import { LOGO_MAX_BYTES, LOGO_TOO_LARGE } from "@shared/organizations";
import { describe, expect, it } from "vitest";
import { checkLogoFile, LOGO_WRONG_TYPE } from "@/features/settings/profile/logo-file";

function file(type: string, bytes: number, name = "logo") {
  return new File([new Uint8Array(bytes)], name, { type });
}

describe("checkLogoFile", () => {
  it("accepts JPEG and PNG up to 2 MB", () => {
    expect(checkLogoFile(file("image/png", 1024))).toBeNull();
    expect(checkLogoFile(file("image/jpeg", LOGO_MAX_BYTES))).toBeNull();
  });

  it("rejects anything over 2 MB with the SPEC text", () => {
    expect(checkLogoFile(file("image/png", LOGO_MAX_BYTES + 1))).toBe(LOGO_TOO_LARGE);
    expect(LOGO_TOO_LARGE).toBe("Logo must be less than 2MB");
  });

  it("rejects other image types", () => {
    expect(checkLogoFile(file("image/gif", 10))).toBe(LOGO_WRONG_TYPE);
    expect(checkLogoFile(file("image/svg+xml", 10))).toBe(LOGO_WRONG_TYPE);
  });
});

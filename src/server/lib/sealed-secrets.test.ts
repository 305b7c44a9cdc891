import { describe, expect, it } from "vitest";
import { createSecretSealer } from "./sealed-secrets";

describe("sealed secrets", () => {
  const sealer = createSecretSealer("a".repeat(43), "stripe-webhook");

  it("opens what it sealed, and seals the same secret differently each time", () => {
    const sealed = sealer.seal("whsec_abc123");
    expect(sealed).not.toContain("whsec_abc123");
    expect(sealer.open(sealed)).toBe("whsec_abc123");
    expect(sealer.seal("whsec_abc123")).not.toBe(sealed);
  });

  it("opens nothing sealed under another APP_SECRET or purpose, altered, or malformed", () => {
    const sealed = sealer.seal("whsec_abc123");
    expect(createSecretSealer("b".repeat(43), "stripe-webhook").open(sealed)).toBeNull();
    expect(createSecretSealer("a".repeat(43), "other").open(sealed)).toBeNull();
    const [version, iv, body, tag] = sealed.split(".");
    const flipped = `${body?.[0] === "A" ? "B" : "A"}${body?.slice(1)}`;
    expect(sealer.open([version, iv, flipped, tag].join("."))).toBeNull();
    for (const bad of ["", "v1", "v2.a.b.c", "v1.a.b", "not sealed at all"])
      expect(sealer.open(bad)).toBeNull();
  });
});

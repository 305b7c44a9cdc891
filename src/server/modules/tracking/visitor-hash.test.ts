import { hash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hmac } from "../../lib/tokens";
import { createVisitorHasher } from "./visitor-hash";

const SECRET = "test-secret-test-secret-test-secret-0123";
const at = (iso: string) => Date.parse(iso);

describe("visitor hash", () => {
  it("recognises a visitor within a UTC day and never across days", () => {
    const hashVisitor = createVisitorHasher(SECRET);
    const morning = hashVisitor("192.0.2.1", "Mozilla/5.0", at("2026-11-24T00:00:00.000Z"));
    const night = hashVisitor("192.0.2.1", "Mozilla/5.0", at("2026-11-24T23:59:59.999Z"));
    const nextDay = hashVisitor("192.0.2.1", "Mozilla/5.0", at("2026-11-25T00:00:00.000Z"));
    const dayBefore = hashVisitor("192.0.2.1", "Mozilla/5.0", at("2026-11-23T12:00:00.000Z"));
    expect(night).toBe(morning);
    expect(nextDay).not.toBe(morning);
    expect(dayBefore).not.toBe(morning);
    expect(hashVisitor("192.0.2.1", "Mozilla/5.0", at("2026-11-24T12:00:00.000Z"))).toBe(morning);
  });

  it("tells visitors apart by address and user agent, and holds no raw address", () => {
    const hashVisitor = createVisitorHasher(SECRET);
    const now = at("2026-11-24T10:00:00.000Z");
    const a = hashVisitor("192.0.2.1", "Mozilla/5.0", now);
    expect(hashVisitor("192.0.2.2", "Mozilla/5.0", now)).not.toBe(a);
    expect(hashVisitor("192.0.2.1", "curl/8", now)).not.toBe(a);
    expect(a).toMatch(/^[\w-]{32}$/);
    expect(a).not.toContain("192");
  });

  it("derives each day's salt from the secret and the date", () => {
    const other = createVisitorHasher("another-secret-another-secret-0123456789");
    const now = at("2026-11-24T10:00:00.000Z");
    expect(other("192.0.2.1", "Mozilla/5.0", now)).not.toBe(
      createVisitorHasher(SECRET)("192.0.2.1", "Mozilla/5.0", now),
    );
    const salt = hmac(SECRET, "visitor-salt:2026-11-24");
    const expected = hash("sha256", `${salt}|192.0.2.1|Mozilla/5.0`, "base64url").slice(0, 32);
    expect(createVisitorHasher(SECRET)("192.0.2.1", "Mozilla/5.0", now)).toBe(expected);
  });
});

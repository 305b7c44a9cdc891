import { createHmac, randomUUID } from "node:crypto";
import { CLICK_ID_TTL_MS } from "@shared/tracking";
import { describe, expect, it } from "vitest";
import { CLICK_ID_LENGTH, createClickIds } from "./click-id";

const ids = createClickIds("s".repeat(40));
const source = randomUUID();
const target = randomUUID();
const now = Date.UTC(2026, 10, 25, 12);

describe("click ids", () => {
  it("prove the sharer and the time to the organization that received the click", () => {
    const id = ids.issue(source, target, now);
    expect(id).toHaveLength(CLICK_ID_LENGTH);
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(ids.read(id, target, now + 1000)).toEqual({ sourceOrgId: source, occurredAt: now });
    expect(ids.issue(source, target, now)).not.toBe(id);
  });

  it("prove nothing to another organization, under another secret, altered, or respelled", () => {
    const id = ids.issue(source, target, now);
    expect(ids.read(id, randomUUID(), now)).toBeNull();
    expect(ids.read(id, source, now)).toBeNull();
    expect(createClickIds("t".repeat(40)).read(id, target, now)).toBeNull();
    const flipped = `${id.slice(0, 10)}${id[10] === "A" ? "B" : "A"}${id.slice(11)}`;
    expect(ids.read(flipped, target, now)).toBeNull();
    // The last character carries unused bits: another spelling of the same bytes is refused.
    const last = id.at(-1) ?? "";
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const respelled = id.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1];
    expect(Buffer.from(respelled, "base64url").equals(Buffer.from(id, "base64url"))).toBe(true);
    expect(ids.read(respelled, target, now)).toBeNull();
    expect(ids.read("click123456789", target, now)).toBeNull();
    expect(ids.read(`${id}A`, target, now)).toBeNull();
  });

  it("prove nothing when issued as unprovable (a bot's hit), to any organization", () => {
    const id = ids.issue(source, target, now, false);
    expect(id).toHaveLength(CLICK_ID_LENGTH);
    for (const org of [target, source, randomUUID()]) expect(ids.read(id, org, now)).toBeNull();
    expect(ids.issue(source, target, now, false)).not.toBe(id);
  });

  it("expire after 30 days and are not accepted from far in the future", () => {
    const id = ids.issue(source, target, now);
    expect(ids.read(id, target, now + CLICK_ID_TTL_MS)).not.toBeNull();
    expect(ids.read(id, target, now + CLICK_ID_TTL_MS + 1)).toBeNull();
    expect(ids.read(id, target, now - 60 * 60_000)).toBeNull();
  });

  it("carry an HMAC-SHA256 of their body and the receiver, as ids already in e-mails were made", () => {
    const id = Buffer.from(ids.issue(source, target, now), "base64url");
    const expected = createHmac("sha256", "s".repeat(40))
      .update(id.subarray(0, 32))
      .update(target)
      .digest()
      .subarray(0, 12);
    expect(id.subarray(32).equals(expected)).toBe(true);
  });
});

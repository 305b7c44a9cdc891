import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createHmacSha256 } from "./hmac-sha256";

const reference = (key: string | Buffer, parts: Array<Buffer | string>) => {
  const mac = createHmac("sha256", key);
  for (const part of parts) mac.update(part);
  return mac.digest();
};

describe("createHmacSha256", () => {
  // RFC 4231 test case 2: a short key.
  it("gives the RFC 4231 digest", () => {
    const mac = createHmacSha256("Jefe");
    expect(mac("what do ya want ", "for nothing?").toString("hex")).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });

  it("equals createHmac for keys shorter than, as long as and longer than a block", () => {
    for (const key of ["k", "x".repeat(64), "y".repeat(65), randomBytes(200), "clé secrète ✓"]) {
      const mac = createHmacSha256(key);
      for (const parts of [
        [],
        [randomBytes(32), "0b6c1a7e-1234-4abc-8def-0123456789ab"],
        ["ünïcødé ✓", randomBytes(3)],
        [randomBytes(1000)],
      ])
        expect(mac(...parts).equals(reference(key, parts))).toBe(true);
    }
  });

  it("gives the same answer again after a long message (the reused buffer is not left dirty)", () => {
    const mac = createHmacSha256("secret");
    const short = [randomBytes(32), "org"];
    const first = mac(...short);
    mac("z".repeat(5000));
    mac(randomBytes(200));
    expect(mac(...short).equals(first)).toBe(true);
    expect(first.equals(reference("secret", short))).toBe(true);
  });

  it("answers a new buffer each time: a caller may keep it", () => {
    const mac = createHmacSha256("secret");
    const first = mac("a");
    const copy = Buffer.from(first);
    mac("b");
    expect(first.equals(copy)).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { CONVERSION_METADATA_MAX_BYTES, jsonByteLength, recordConversionSchema } from "./tracking";

const withMetadata = (metadata: unknown) =>
  recordConversionSchema.safeParse({ clickId: "click", type: "signup", metadata });
/** `{"note":"…"}` around the text: 11 bytes of ASCII. */
const note = (text: string) => ({ note: text });

describe("conversion metadata cap", () => {
  it("counts UTF-8 bytes of the JSON, not characters", () => {
    expect(jsonByteLength(note("abc"))).toBe(14);
    expect(jsonByteLength(note("é"))).toBe(13);
    expect(jsonByteLength(note("中"))).toBe(14);
    expect(jsonByteLength(note("😀"))).toBe(15);
  });

  it("accepts metadata of exactly the cap in multi-byte characters", () => {
    // 11 ASCII bytes + 1 + 2 × 2042 = 4096.
    const metadata = note(`a${"é".repeat(2042)}`);
    expect(jsonByteLength(metadata)).toBe(CONVERSION_METADATA_MAX_BYTES);
    expect(withMetadata(metadata).success).toBe(true);
  });

  it.each([
    ["é (2 bytes)", "é".repeat(2043)],
    ["中 (3 bytes)", "中".repeat(1400)],
    ["😀 (4 bytes)", "😀".repeat(1100)],
  ])("refuses metadata over the cap in bytes though under it in characters: %s", (_name, text) => {
    const metadata = note(text);
    expect(JSON.stringify(metadata).length).toBeLessThanOrEqual(CONVERSION_METADATA_MAX_BYTES);
    const result = withMetadata(metadata);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("metadata must be at most 4096 bytes as UTF-8 JSON");
  });
});

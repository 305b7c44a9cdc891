import { describe, expect, it } from "vitest";
import { isAllowedText, JSON_DEPTH_MAX, jsonProblem, jsonValue, text } from "./text";

describe("isAllowedText", () => {
  it.each([
    ["plain text", "Acme Inc.", true, true],
    ["accents, CJK and an emoji (a surrogate pair)", "Café 中文 😀", true, true],
    ["DEL and C1 controls (not C0)", "a\u007fb\u0085c", true, true],
    ["NUL", "a\u0000b", false, false],
    ["a bell", "a\u0007b", false, false],
    ["escape", "a\u001bb", false, false],
    ["a tab", "a\tb", false, true],
    ["LF", "a\nb", false, true],
    ["CRLF", "a\r\nb", false, true],
    ["a lone high surrogate", "a\ud800", false, false],
    ["a high surrogate before a letter", "\ud800a", false, false],
    ["a lone low surrogate", "\udc00a", false, false],
    ["a pair written backwards", "\ude00\ud83d", false, false],
  ])("%s: single-line %s, multi-line %s", (_name, value, singleLine, multiline) => {
    expect(isAllowedText(value)).toBe(singleLine);
    expect(isAllowedText(value, { multiline: true })).toBe(multiline);
  });
});

describe("text()", () => {
  const title = text("Title", { error: "Title is required" }).min(1, { error: "Title is required" });

  it("trims first, so a line break around a single-line value is cut off as before", () => {
    expect(title.parse("  Acme\n")).toBe("Acme");
  });

  it("refuses with the field's message, before the field's other rules", () => {
    expect(title.safeParse("\u0000").error?.issues[0]?.message).toBe(
      "Title contains characters that are not allowed",
    );
    expect(title.safeParse(42).error?.issues[0]?.message).toBe("Title is required");
  });

  it("takes passwords and tokens as typed when asked", () => {
    expect(text("Password", { trim: false }).parse(" secret ")).toBe(" secret ");
  });
});

describe("free-form JSON", () => {
  const deep = (depth: number): unknown => {
    let value: unknown = "leaf";
    for (let i = 0; i < depth; i++) value = { nested: value };
    return value;
  };

  it("checks every key and string at any depth", () => {
    expect(jsonProblem({ a: [1, true, null, { b: "line\nbreak\ttab" }] })).toBeUndefined();
    expect(jsonProblem({ a: [{ b: "x\u0000" }] })).toBe("text");
    expect(jsonProblem({ a: { "key\nbreak": 1 } })).toBe("text");
    expect(jsonProblem(["\ud800"])).toBe("text");
  });

  it("bounds the nesting without recursing, however deep the value", () => {
    expect(jsonProblem(deep(JSON_DEPTH_MAX))).toBeUndefined();
    expect(jsonProblem(deep(JSON_DEPTH_MAX + 1))).toBe("depth");
    expect(jsonProblem(deep(200_000))).toBe("depth");
    expect(jsonValue("suggestions").safeParse(deep(200_000)).error?.issues[0]?.message).toBe(
      "suggestions is nested too deeply",
    );
  });
});

import { describe, expect, it } from "vitest";
import { parsePrometheusText } from "./prometheus-text";

describe("the strict exposition-format reader of the metrics tests", () => {
  it("reads families, labels with escapes, and special values", () => {
    const families = parsePrometheusText(
      [
        "# HELP a_total Things.",
        "# TYPE a_total counter",
        'a_total{path="/s/:code",note="say \\"hi\\"\\n"} 3',
        "# TYPE h histogram",
        'h_bucket{le="+Inf"} 2',
        "h_sum 0.5",
        "h_count 2",
        "# TYPE g gauge",
        "g Nan",
        "",
      ].join("\n"),
    );
    expect(families.get("a_total")?.samples[0]).toEqual({
      name: "a_total",
      labels: { path: "/s/:code", note: 'say "hi"\n' },
      value: 3,
    });
    expect(families.get("h")?.samples.map((s) => s.name)).toEqual(["h_bucket", "h_sum", "h_count"]);
    expect(families.get("g")?.samples[0]?.value).toBeNaN();
  });

  it.each([
    ["a sample before its TYPE", "x 1\n"],
    ["a sample of another family", "# TYPE x gauge\ny 1\n"],
    ["an unquoted label", "# TYPE x gauge\nx{a=b} 1\n"],
    ["a value that is no number", "# TYPE x gauge\nx one\n"],
    ["an unknown type", "# TYPE x meter\n"],
    ["a bucket without le", "# TYPE x histogram\nx_bucket 1\n"],
    ["no final newline", "# TYPE x gauge\nx 1"],
  ])("refuses %s", (_, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});

// A strict reader of Prometheus's text exposition format (version 0.0.4), for tests of the
// metrics listener: any line that is not a HELP, a TYPE, a comment or a well-formed sample of a
// family declared before it is an error.

export type Sample = { name: string; labels: Record<string, string>; value: number };
export type Family = { name: string; type: string; help: string; samples: Sample[] };

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const LABEL_NAME = "[a-zA-Z_][a-zA-Z0-9_]*";
const LABEL_VALUE = '"(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const LABEL = `${LABEL_NAME}=${LABEL_VALUE}`;
// Go's ParseFloat, which Prometheus uses, takes NaN and Inf in any case (prom-client writes "Nan").
const VALUE =
  "(?:[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?|[+-]?[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN])";
const HELP_LINE = new RegExp(`^# HELP (${NAME}) (.*)$`);
const TYPE_LINE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE_LINE = new RegExp(
  `^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? (${VALUE})(?: (-?\\d+))?$`,
);
const EACH_LABEL = new RegExp(`(${LABEL_NAME})=(${LABEL_VALUE})`, "g");

/** The sample names a family of each type may carry. */
function sampleNamesOf(family: Family): string[] {
  if (family.type === "histogram") return ["_bucket", "_sum", "_count"].map((s) => family.name + s);
  if (family.type === "summary") return [family.name, `${family.name}_sum`, `${family.name}_count`];
  return [family.name];
}

function unescapeLabel(quoted: string): string {
  return quoted.slice(1, -1).replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
}

function parseValue(text: string): number {
  const lower = text.toLowerCase();
  if (lower === "nan") return Number.NaN;
  if (/inf/.test(lower)) return lower.startsWith("-") ? -Infinity : Infinity;
  return Number(text);
}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (text.length > 0 && !text.endsWith("\n")) throw new Error("the exposition does not end with a newline");
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  let current: Family | undefined;
  const lines = text.split("\n").slice(0, -1);
  for (const [index, line] of lines.entries()) {
    const fail: (why: string) => never = (why) => {
      throw new Error(`line ${index + 1}: ${why}: ${JSON.stringify(line)}`);
    };
    if (line === "") continue;
    const help = HELP_LINE.exec(line);
    if (help) {
      helps.set(help[1] as string, help[2] as string);
      continue;
    }
    const type = TYPE_LINE.exec(line);
    if (type) {
      const name = type[1] as string;
      if (families.has(name)) fail("a second TYPE for the family");
      current = { name, type: type[2] as string, help: helps.get(name) ?? "", samples: [] };
      families.set(name, current);
      continue;
    }
    if (line.startsWith("#")) {
      if (/^# (HELP|TYPE)\b/.test(line)) fail("a malformed HELP or TYPE line");
      continue;
    }
    const sample = SAMPLE_LINE.exec(line);
    if (!sample) fail("not a sample");
    const name = sample[1] as string;
    if (!current || !sampleNamesOf(current).includes(name)) fail("a sample outside its declared family");
    const labels: Record<string, string> = {};
    for (const match of (sample[2] ?? "").matchAll(EACH_LABEL)) {
      const labelName = match[1] as string;
      if (labelName in labels) fail(`label ${labelName} given twice`);
      labels[labelName] = unescapeLabel(match[2] as string);
    }
    if (current?.type === "histogram" && name.endsWith("_bucket") && !("le" in labels))
      fail("a bucket without le");
    current?.samples.push({ name, labels, value: parseValue(sample[3] as string) });
  }
  return families;
}

/** The value of the one sample with these labels (among others), or undefined. */
export function sampleValue(
  families: Map<string, Family>,
  family: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const matches = (families.get(family)?.samples ?? []).filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (matches.length > 1)
    throw new Error(`${matches.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return matches[0]?.value;
}

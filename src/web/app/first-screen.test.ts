import { describe, expect, it } from "vitest";

/** Every source of the app and of the shared modules, by path from the project's root. */
const SOURCES = import.meta.glob<string>(["/src/web/**/*.{ts,tsx}", "/src/shared/**/*.{ts,tsx}"], {
  query: "?raw",
  import: "default",
  eager: true,
});

/** Where an import in `from` names a source, or the package it names. */
function resolve(specifier: string, from: string): { file: string } | { pkg: string } {
  const base = specifier.startsWith("@/")
    ? `/src/web/${specifier.slice(2)}`
    : specifier.startsWith("@shared/")
      ? `/src/shared/${specifier.slice("@shared/".length)}`
      : specifier.startsWith(".")
        ? new URL(specifier, `file://${from}`).pathname
        : undefined;
  if (!base) {
    const parts = specifier.split("/");
    return { pkg: (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/") };
  }
  const file = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((path) => path in SOURCES);
  if (!file) throw new Error(`${specifier} (from ${from}) names no source`);
  return { file };
}

/** What the entry loads before its first screen: its static imports, type-only ones left out. */
function firstScreen(entry: string) {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const match of (SOURCES[file] ?? "").matchAll(
      /^(?:import|export)\s+(type\s+)?(?:[^;]*?\sfrom\s+)?"([^"]+)";/gm,
    )) {
      if (match[1] || !match[2] || match[2].endsWith(".css")) continue;
      const target = resolve(match[2], file);
      if ("file" in target) pending.push(target.file);
      else if (!packages.has(target.pkg)) packages.set(target.pkg, file);
    }
  }
  return { files, packages };
}

describe("the dashboard's first screen", () => {
  const { files, packages } = firstScreen("/src/web/main.tsx");

  it("is found from the entry", () => {
    expect(files).toContain("/src/web/features/overview/overview-page.tsx");
    expect(packages.has("react-router")).toBe(true);
  });

  // Zod is some 90 KB of script that the overview never runs: its forms are on other screens.
  // Shared modules the first screen needs hold no schema (reciprocity.ts, click-reasons.ts, days.ts).
  it("loads no zod", () => {
    expect(packages.get("zod"), "imported first by this file").toBeUndefined();
  });

  // The export dialog loads when its button is first used (export-csv-button.tsx), and the
  // phone's sort control is the platform's own select: no dialog or select code before it.
  // Notices load sonner at the first press, key or notice (components/ui/toast.ts). The walk sees
  // the packages the app imports itself, not what those import in turn.
  it.each(["@radix-ui/react-dialog", "@radix-ui/react-alert-dialog", "@radix-ui/react-select", "sonner"])(
    "loads no %s",
    (pkg) => {
      expect(packages.get(pkg), "imported first by this file").toBeUndefined();
    },
  );
});

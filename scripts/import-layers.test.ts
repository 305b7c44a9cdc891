import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The layers of docs/architecture.md are enforced by biome.json's noRestrictedImports overrides.
 * Here the project's biome.json lints a small tree of probe files, each importing one thing, so a
 * rule that stops firing (a folder renamed, an override reordered so a later one replaces it) fails
 * this test rather than letting imports run back up unnoticed.
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const biome = path.join(root, "node_modules", ".bin", "biome");

/** A file of the tree, the specifier it imports, and whether the layers forbid it. */
const probes: { file: string; imports: string; forbidden: boolean }[] = [
  // Below the modules, nothing imports modules/, by a relative path of any depth.
  {
    file: "src/server/plugins/auth.ts",
    imports: "../modules/api-keys/api-key-authenticator",
    forbidden: true,
  },
  { file: "src/server/lib/tokens.ts", imports: "../modules/auth/sessions", forbidden: true },
  { file: "src/server/db/client.ts", imports: "../../server/modules/catalog", forbidden: true },
  { file: "src/server/mail/mail-jobs.ts", imports: "../modules/team/team.service", forbidden: true },
  { file: "src/server/outbox/jobs.ts", imports: "../modules/webhooks/webhook-delivery", forbidden: true },
  { file: "src/server/observability/metrics.ts", imports: "../modules", forbidden: true },
  { file: "src/server/lifecycle/readiness.ts", imports: "../modules/ads/ads.service", forbidden: true },
  // Plugins are used by modules and app.ts only.
  { file: "src/server/lib/mailer.ts", imports: "../plugins/errors", forbidden: true },
  { file: "src/server/db/migrate.ts", imports: "../plugins/auth", forbidden: true },
  // Test support never ships.
  { file: "src/server/app.ts", imports: "./testing/app", forbidden: true },
  { file: "src/server/modules/ads/ads.service.ts", imports: "../../testing/fake-stripe", forbidden: true },
  { file: "src/web/lib/api-client.ts", imports: "@/testing/fetch-stub", forbidden: true },
  {
    file: "src/web/features/auth/login-form.tsx",
    imports: "@/testing/render-with-providers",
    forbidden: true,
  },
  // shared imports nothing of the server or the web app.
  { file: "src/shared/auth.ts", imports: "../server/plugins/auth", forbidden: true },
  { file: "src/shared/snippets.ts", imports: "../web/lib/paths", forbidden: true },
  { file: "src/shared/text.ts", imports: "@/lib/paths", forbidden: true },
  // Features never import each other, by alias or by a relative path out of their folder.
  {
    file: "src/web/features/overview/overview-page.tsx",
    imports: "@/features/collateral/api",
    forbidden: true,
  },
  { file: "src/web/features/settings/team/team-tab.tsx", imports: "@/features/auth/api", forbidden: true },
  { file: "src/web/features/relationships/api.ts", imports: "../suggestions/api", forbidden: true },

  // What the layers allow.
  { file: "src/server/modules/api-keys/api-keys.routes.ts", imports: "../../plugins/auth", forbidden: false },
  {
    file: "src/server/modules/onboarding/onboarding.service.ts",
    imports: "../organizations/x",
    forbidden: false,
  },
  { file: "src/server/plugins/web.ts", imports: "../lib/tokens", forbidden: false },
  { file: "src/server/mail/team-mails.ts", imports: "../outbox/jobs", forbidden: false },
  { file: "src/server/plugins/auth.test.ts", imports: "../testing/app", forbidden: false },
  { file: "src/server/testing/app.ts", imports: "../modules/auth/sessions", forbidden: false },
  { file: "src/web/testing/render-app.tsx", imports: "@/features/auth/api", forbidden: false },
  {
    file: "src/web/features/auth/login-form.test.tsx",
    imports: "@/testing/render-with-providers",
    forbidden: false,
  },
  { file: "src/web/features/overview/partners/api.ts", imports: "@/features/overview/api", forbidden: false },
  {
    file: "src/web/features/collateral/collateral-page.tsx",
    imports: "@/components/empty-state",
    forbidden: false,
  },
  { file: "src/web/app/routes/tool-detail.tsx", imports: "@/features/collateral/api", forbidden: false },
  { file: "src/web/lib/api-client.ts", imports: "@testing-library/react", forbidden: false },
  { file: "src/shared/onboarding.ts", imports: "./website", forbidden: false },
];

type Diagnostic = { category: string; location: { path: string } };

let tree: string;
/** The probes the lint refused, by index. */
let flagged: Set<number>;

beforeAll(async () => {
  tree = await mkdtemp(path.join(tmpdir(), "buddy-layers-"));
  await copyFile(path.join(root, "biome.json"), path.join(tree, "biome.json"));
  // Each probe its own file (two may stand in one folder), named so a test stays a test.
  const files = probes.map(({ file }, index) => file.replace(/(\.test)?\.tsx?$/, (end) => `-${index}${end}`));
  await Promise.all(
    probes.map(async (probe, index) => {
      const file = path.join(tree, files[index] as string);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, `import { probe } from "${probe.imports}";\n\nexport const used = probe;\n`);
    }),
  );
  // Biome exits 1 on the refused probes; its report is on stdout either way.
  const args = ["lint", "--reporter=json", "--max-diagnostics=none", "."];
  const { stdout } = await promisify(execFile)(biome, args, { cwd: tree }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }),
  );
  const report = JSON.parse(stdout) as { diagnostics: Diagnostic[] };
  const restricted = report.diagnostics.filter((d) => d.category === "lint/style/noRestrictedImports");
  flagged = new Set(restricted.map((d) => files.indexOf(d.location.path)));
}, 20_000);

afterAll(async () => {
  if (tree) await rm(tree, { recursive: true, force: true });
});

describe("import layers (biome.json)", () => {
  const cases = probes.map((probe, index) => ({ ...probe, index }));

  it.each(cases.filter((p) => p.forbidden))("refuses $file importing $imports", ({ index }) => {
    expect(flagged.has(index)).toBe(true);
  });

  it.each(cases.filter((p) => !p.forbidden))("allows $file importing $imports", ({ index }) => {
    expect(flagged.has(index)).toBe(false);
  });

  it("flags nothing but the probes", () => {
    expect(flagged.has(-1)).toBe(false);
  });

  it("has an override for every web feature, so a new feature is kept apart from the start", async () => {
    const config = JSON.parse(await readFile(path.join(root, "biome.json"), "utf8")) as {
      overrides: { includes: string[] }[];
    };
    const covered = new Set(config.overrides.flatMap((o) => o.includes));
    const features = (await readdir(path.join(root, "src/web/features"), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(features.length).toBeGreaterThan(0);
    for (const feature of features) expect(covered).toContain(`src/web/features/${feature}/**`);
  });
});

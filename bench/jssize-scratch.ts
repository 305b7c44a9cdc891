import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { startBuddy } from "../src/server/test-buddy-process";
const buddy = await startBuddy({});
try {
  const token = await buddy.createOrganization("jssize", "A help desk for support teams");
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  for (const [path, signedIn] of [["/auth", false], ["/dashboard", true]] as const) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    if (signedIn) await context.addInitScript((t) => localStorage.setItem("token", t), token);
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on("request", (r) => { if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname); });
    await page.goto(`${buddy.origin}${path}`, { waitUntil: "networkidle" });
    let total = 0;
    const rows = scripts.map((s) => { const gz = gzipSync(readFileSync(`dist/web${s}`), { level: 9 }).length; total += gz; return `${gz}\t${s}`; });
    console.log(`${path}: ${scripts.length} scripts, ${total} B gz\n  ${rows.sort((a, b) => Number(b.split("\t")[0]) - Number(a.split("\t")[0])).slice(0, 12).join("\n  ")}`);
    await page.screenshot({ path: `/tmp/scratch-buddy/shots/size${path.replace("/", "-")}.png` });
    await context.close();
  }
  await browser.close();
} finally {
  await buddy.stop();
}

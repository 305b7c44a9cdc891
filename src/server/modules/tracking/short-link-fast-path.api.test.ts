import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickEvents } from "../../db/schema";
import { createOrganization, createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../test-helpers";

// The fast path sits on the HTTP server, so these requests go over a real socket, not inject.
let t: TestApp;
let origin: string;
let shortPath: string;
let b: Awaited<ReturnType<typeof createOrganization>>;
let collateralId: string;
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const ad = {
  name: "Try Fastpath",
  description: "The best tool.",
  ctaText: "Start",
  ctaUrl: "https://fastpath.example/start?utm_source=buddy",
  status: "active",
};

beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: "true" } });
  const a = await createOrganization(t, "fastsharer");
  b = await createOrganization(t, "fastpath");
  await t.app.inject({
    method: "POST",
    url: "/api/relationships",
    headers: a.headers,
    payload: { organizationId: b.organizationId, type: "complement" },
  });
  const created = await t.app.inject({
    method: "POST",
    url: "/api/marketing/collateral",
    headers: b.headers,
    payload: ad,
  });
  collateralId = created.json().id;
  const list = await t.app.inject({
    url: `/api/marketing/collateral?organizationId=${b.organizationId}`,
    headers: a.headers,
  });
  const short = await t.app.inject({
    method: "POST",
    url: "/api/short-url",
    headers: a.headers,
    payload: { longUrl: list.json()[0].trackedUrl },
  });
  shortPath = short.json().shortUrl.slice(TEST_PUBLIC_URL.length);
  origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t.close());

const follow = (path: string, init: RequestInit = {}) =>
  fetch(`${origin}${path}`, { redirect: "manual", ...init });
const stored = async () => {
  await t.app.tracker.settle();
  return t.database.db.select().from(clickEvents);
};

describe("short links over HTTP", () => {
  it("answers the first and every later click alike, each one recorded", async () => {
    const before = (await stored()).length;
    // The first goes through Fastify's route and puts the link in memory; the rest are answered before it.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await follow(shortPath, { headers: { "user-agent": BROWSER } }));
    for (const answer of answers) {
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toMatch(
        /^https:\/\/fastpath\.example\/start\?utm_source=buddy&bclickid=[\w-]{59}$/,
      );
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      expect(answer.headers.get("content-security-policy")).toBeNull();
    }
    const ids = answers.map((answer) =>
      new URL(answer.headers.get("location") ?? "").searchParams.get("bclickid"),
    );
    expect(new Set(ids).size).toBe(3);
    const rows = await stored();
    expect(rows.length - before).toBe(3);
    expect(rows.filter((row) => ids.includes(row.id))).toHaveLength(3);
  });

  it("judges the client by X-Forwarded-For behind a trusted proxy, and a HEAD as no person", async () => {
    await follow(shortPath, { headers: { "user-agent": BROWSER } });
    const first = await follow(shortPath, {
      headers: { "user-agent": BROWSER, "x-forwarded-for": "198.51.100.7" },
    });
    const second = await follow(shortPath, {
      headers: { "user-agent": BROWSER, "x-forwarded-for": "198.51.100.8" },
    });
    const head = await follow(shortPath, { method: "HEAD", headers: { "user-agent": BROWSER } });
    expect(head.status).toBe(302);
    const idOf = (answer: Response) =>
      new URL(answer.headers.get("location") ?? "").searchParams.get("bclickid");
    const rows = await stored();
    const rowOf = (answer: Response) => rows.find((row) => row.id === idOf(answer));
    // Two readers behind one proxy: two people, neither a repeat of the other.
    expect(rowOf(first)?.visitorHash).not.toBe(rowOf(second)?.visitorHash);
    expect(rowOf(first)?.duplicate).toBe(false);
    expect(rowOf(second)?.duplicate).toBe(false);
    expect(rows.filter((row) => row.method === "HEAD").every((row) => row.bot && !row.verified)).toBe(true);
  });

  it("hands a link it may no longer follow to the route, which refuses it and records nothing", async () => {
    await follow(shortPath, { headers: { "user-agent": BROWSER } });
    await t.app.inject({
      method: "PATCH",
      url: `/api/marketing/collateral/${collateralId}`,
      headers: b.headers,
      payload: { ...ad, ctaUrl: "https://moved.fastpath.example/" },
    });
    const before = (await stored()).length;
    const refused = await follow(shortPath, { headers: { "user-agent": BROWSER } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: "This tracked link is not valid" });
    expect((await stored()).length).toBe(before);
    expect((await follow("/s/unknown-code")).status).toBe(404);
  });
});

import { DAY_MS } from "@shared/days";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createApiKey,
  createOrganization,
  createTestApp,
  TEST_PUBLIC_URL,
  type TestApp,
} from "../../testing/app";
import { clickThrough, createSharedAds } from "../../testing/buddies";

/** CONTRACT §9's exports through the API: columns, quoting, formulas, the range, who may read. */
let t: TestApp;
let sharer: Awaited<ReturnType<typeof createOrganization>>;
let advertiser: Awaited<ReturnType<typeof createOrganization>>;
let outsider: Awaited<ReturnType<typeof createOrganization>>;
let advertiserKey: string;
let collateralId: string;
const clickIds: string[] = [];
const conversionIds: Record<string, string> = {};
const today = new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  const shared = await createSharedAds(
    t,
    ["exportsharer", "exportadvertiser"],
    [{ name: "Try it", description: "The best tool.", ctaText: "Start" }],
  );
  ({ sharer, advertiser } = shared);
  collateralId = shared.adIds[0] as string;
  outsider = await createOrganization(t, "exportoutsider");
  advertiserKey = (await createApiKey(t, advertiser)).key;
  for (const address of ["192.0.2.41", "192.0.2.42"])
    clickIds.push(await clickThrough(t, shared.trackedUrls[0] as string, address));
  // A bot (curl): stored, not counted.
  await t.app.inject({
    url: (shared.trackedUrls[0] as string).slice(TEST_PUBLIC_URL.length),
    headers: { "user-agent": "curl/8.0" },
  });
  const convert = async (name: string, payload: object) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/marketing/conversion",
      headers: { "x-api-key": advertiserKey },
      payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    conversionIds[name] = response.json().id;
  };
  await convert("signup", { clickId: clickIds[0], type: "signup" });
  await convert("purchase", {
    clickId: clickIds[0],
    type: "purchase",
    value: 49.9,
    currency: "USD",
    customerId: 'cus,"quoted"',
    eventId: "=HYPERLINK(1)",
  });
  await convert("yen", {
    clickId: clickIds[1],
    type: "purchase",
    value: 5000,
    currency: "JPY",
    eventId: "-2+3",
  });
});
afterAll(() => t.close());

const exportOf = (kind: "conversions" | "clicks", query: string, headers: Record<string, string>) =>
  t.app.inject({ url: `/api/exports/${kind}.csv?${query}`, headers });
const lines = (body: string) => body.split("\r\n").filter((line) => line !== "");

describe("CSV exports", () => {
  it("exports conversions in both directions with the contract's header, RFC 4180 quoting and no formulas", async () => {
    const response = await exportOf("conversions", `from=${daysAgo(1)}&to=${today}`, advertiser.headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="conversions-${daysAgo(1)}-to-${today}.csv"`,
    );
    expect(response.body.endsWith("\r\n")).toBe(true);
    const [header, ...rows] = lines(response.body);
    expect(header).toBe(
      "id,occurred_at,direction,type,partner_id,partner_name,click_id,customer_id,value,currency,event_id,collateral_id,refunded",
    );
    expect(rows).toHaveLength(3);
    const row = (name: string) => rows.find((line) => line.startsWith(`${conversionIds[name]},`)) ?? "";
    const partner = `${sharer.organizationId},exportsharer`;
    expect(row("signup")).toMatch(
      new RegExp(
        `^${conversionIds.signup},\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z,received,signup,${partner},${clickIds[0]},,,,,${collateralId},$`,
      ),
    );
    // A quote doubled inside a quoted field; a formula prefixed with '; money with its currency's decimals.
    expect(row("purchase")).toContain(
      `,received,purchase,${partner},${clickIds[0]},"cus,""quoted""",49.90,USD,'=HYPERLINK(1),${collateralId}`,
    );
    expect(row("yen")).toContain(`,5000,JPY,'-2+3,${collateralId}`);
    // Oldest first.
    const times = rows.map((line) => line.split(",")[1] ?? "");
    expect(times).toEqual([...times].sort());

    // The sharer sees the same conversions as sent, with the advertiser as partner.
    const sent = lines(
      (await exportOf("conversions", `from=${today}&to=${today}`, sharer.headers)).body,
    ).slice(1);
    expect(sent).toHaveLength(3);
    for (const line of sent) expect(line).toContain(`,sent,`);
    expect(sent.join("\n")).toContain(`${advertiser.organizationId},exportadvertiser`);
  });

  it("exports every stored click, counted or not, with an API key as well as a session", async () => {
    const response = await exportOf("clicks", `from=${today}&to=${today}`, { "x-api-key": advertiserKey });
    expect(response.statusCode).toBe(200);
    const [header, ...rows] = lines(response.body);
    expect(header).toBe("id,occurred_at,direction,partner_id,partner_name,collateral_id,counted,reason");
    expect(rows).toHaveLength(3);
    for (const id of clickIds) {
      expect(rows.find((line) => line.startsWith(`${id},`))).toMatch(
        new RegExp(`,received,${sharer.organizationId},exportsharer,${collateralId},true,counted$`),
      );
    }
    expect(rows.filter((line) => line.endsWith(",false,bot"))).toHaveLength(1);
  });

  it("keeps each organization's events its own", async () => {
    for (const kind of ["conversions", "clicks"] as const) {
      const response = await exportOf(kind, `from=${today}&to=${today}`, outsider.headers);
      expect(response.statusCode).toBe(200);
      expect(lines(response.body)).toHaveLength(1);
    }
    expect((await exportOf("clicks", `from=${today}&to=${today}`, {})).statusCode).toBe(401);
    expect(
      (await exportOf("clicks", `from=${today}&to=${today}`, { "x-api-key": "bk_live_nope" })).statusCode,
    ).toBe(401);
  });

  it("covers whole UTC days, both included, and nothing outside them", async () => {
    const yesterday = await exportOf(
      "conversions",
      `from=${daysAgo(1)}&to=${daysAgo(1)}`,
      advertiser.headers,
    );
    expect(lines(yesterday.body)).toHaveLength(1);
    const year = await exportOf("conversions", `from=${daysAgo(365)}&to=${today}`, advertiser.headers);
    expect(year.statusCode).toBe(200);
    expect(lines(year.body)).toHaveLength(4);
  });

  it.each([
    ["", "from is required, as a date: YYYY-MM-DD"],
    [`from=${today}`, "to is required, as a date: YYYY-MM-DD"],
    [`from=2026-02-30&to=${today}`, "from is required, as a date: YYYY-MM-DD"],
    [`from=yesterday&to=${today}`, "from is required, as a date: YYYY-MM-DD"],
    [`from=${today}&to=${daysAgo(1)}`, "from must not be after to"],
    [`from=${daysAgo(366)}&to=${today}`, "An export covers at most 366 days"],
  ])("refuses %s with 400", async (query, message) => {
    const response = await exportOf("conversions", query, advertiser.headers);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
  });
});

import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { clickLine, type StoredClick } from "./click-store";

const click = (overrides: Partial<StoredClick> = {}): StoredClick => ({
  id: "AZrN5x3mQ1yH7kLpW0vT8sUuIiOoPpAaSsDdFfGgHhJj",
  short_code: "Ab3_x-9Q",
  relationship_id: randomUUID(),
  collateral_id: randomUUID(),
  source_org_id: randomUUID(),
  target_org_id: randomUUID(),
  occurred_at: new Date().toISOString(),
  method: "GET",
  visitor_hash: "q8Zk1Yb2Xc3Wd4Ve5Uf6Tg7Sh8Ri9Qj0",
  user_agent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0",
  referrer_host: "mail.example",
  bot: false,
  bot_reason: null,
  duplicate: false,
  verified: true,
  ...overrides,
});

describe("clickLine", () => {
  it("writes exactly what JSON.stringify writes, whatever a request brings", () => {
    for (const overrides of [
      {},
      { short_code: null, user_agent: null, referrer_host: null },
      { method: "HEAD", bot: true, bot_reason: "head", verified: false },
      { duplicate: true, verified: false },
      {
        user_agent: 'say "hi"\\ \n\t\u0000\u2028 ✓ 🙂 \ud800 </script>',
        referrer_host: '"},"verified":true',
      },
      { short_code: '"x\\' },
    ] satisfies Partial<StoredClick>[]) {
      const value = click(overrides);
      expect(clickLine(value)).toBe(JSON.stringify(value));
      expect(JSON.parse(clickLine(value))).toEqual(value);
    }
  });
});

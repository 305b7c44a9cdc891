// Issue 38's seed: clicks spread evenly over a span of days, written straight into click_events as
// if stored long ago (the roll-ups' trigger is off meanwhile: what the bench times is not theirs).
import type { Db } from "../src/server/db/client";

const CHUNK = 1_000_000;

export type OldClicks = {
  clicks: number;
  /** The newest seeded click is this many days old, the oldest `fromDaysAgo`. */
  fromDaysAgo: number;
  toDaysAgo: number;
  /** The organizations clicks are spread over (ids `org-0`…), and the pair of every 100th. */
  organizations?: number;
  pair?: { sourceOrgId: string; targetOrgId: string };
};

export async function seedOldClicks(db: Db, seed: OldClicks): Promise<number> {
  const started = performance.now();
  const organizations = seed.organizations ?? 1000;
  const span = seed.fromDaysAgo - seed.toDaysAgo;
  await db.execute("alter table click_events disable trigger click_events_into_days");
  try {
    for (let first = 1; first <= seed.clicks; first += CHUNK) {
      const last = Math.min(seed.clicks, first + CHUNK - 1);
      const source = seed.pair
        ? `case when g % 100 = 0 then '${seed.pair.sourceOrgId}' else 'org-' || (g % ${organizations}) end`
        : `'org-' || (g % ${organizations})`;
      const target = seed.pair
        ? `case when g % 100 = 0 then '${seed.pair.targetOrgId}' else 'org-' || ((g * 7 + 1) % ${organizations}) end`
        : `'org-' || ((g * 7 + 1) % ${organizations})`;
      await db.execute(`
        insert into click_events (id, short_code, relationship_id, collateral_id, source_org_id,
          target_org_id, occurred_at, method, visitor_hash, user_agent, referrer_host, bot, bot_reason,
          duplicate, verified, reason)
        select md5(g::text) || md5((g + 1)::text), null, 'r' || (g % 500), 'c' || (g % 2000),
          ${source}, ${target},
          now() - interval '${seed.toDaysAgo} days' - (g::float8 / ${seed.clicks}) * interval '${span} days',
          'GET', md5('visitor' || g), 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
          case when g % 3 = 0 then 'mail.google.com' end, g % 10 = 0,
          case when g % 10 = 0 then 'user-agent' end, g % 10 = 1, g % 10 > 1,
          case when g % 10 = 0 then 'bot' when g % 10 = 1 then 'repeat' else 'counted' end
        from generate_series(${first}, ${last}) g`);
    }
  } finally {
    await db.execute("alter table click_events enable trigger click_events_into_days");
  }
  await db.execute("analyze click_events");
  return (performance.now() - started) / 1000;
}

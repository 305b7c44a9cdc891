// History for the overview's reads: a million click events over the last 30 days and a few hundred
// leads, written in SQL inside the database (through HTTP it would take far longer); the events'
// triggers roll them up by day and period as they do the click and conversion stores' (migration 0019).
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../src/server/db/client";
import { collateral, relationships, shortLinks } from "../src/server/db/schema";

export const SEEDED_CLICKS = 1_000_000;
/** Issue 27: revenue reads stay flat at a million conversions. */
export const SEEDED_CONVERSIONS = 1_000_000;
// One statement per chunk keeps PGlite's memory (its RETURNING rows) small, and each statement
// well inside the pool's 5 s statement timeout on a busy machine: 100,000 rows a statement, then
// 50,000, overran it while other processes kept both cores busy.
const CHUNK = 25_000;
// Seeded ids cannot meet the server's (22 base64url characters).
const ID_PREFIX = "seed-";

type Pair = { sharerId: string; partnerId: string };

async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  // Both drivers answer raw SQL with an object holding `rows`.
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The links each side shares: the sharer the partner's ad, the partner the sharer's own. */
async function findLinks(db: Db, { sharerId, partnerId }: Pair) {
  const relationshipId = async (source: string, target: string) => {
    const [row] = await db
      .select({ id: relationships.id })
      .from(relationships)
      .where(and(eq(relationships.sourceOrgId, source), eq(relationships.targetOrgId, target)));
    if (!row) throw new Error(`no relationship ${source} → ${target}`);
    return row.id;
  };
  const [link] = await db.select().from(shortLinks).where(eq(shortLinks.sourceOrgId, sharerId)).limit(1);
  if (!link) throw new Error("the bench's short link is missing");
  // The benchmark's setup gives only the partner an ad; a partner sharing back needs one of the sharer's.
  const [own] = await db
    .insert(collateral)
    .values({
      organizationId: sharerId,
      createdByOrganizationId: sharerId,
      name: "Bench ad (seeded)",
      description: "An ad",
      ctaText: "Go",
      ctaUrl: "https://tracksharer.bench.example/go",
      status: "active",
    })
    .returning({ id: collateral.id });
  return {
    out: { relationshipId: link.relationshipId, collateralId: link.collateralId, code: link.code },
    back: { relationshipId: await relationshipId(partnerId, sharerId), collateralId: own?.id ?? "" },
  };
}

/**
 * Clicks first + 1..last: a quarter partner → sharer, the rest sharer → partner; 80 % people, 10 %
 * repeats within the hour, the rest bots by user agent, HEAD or mail scanner (the classifier's
 * reasons). Returns the verified clicks seeded on the sharer's side.
 */
function insertClicks(pair: Pair, links: Awaited<ReturnType<typeof findLinks>>, first: number, last: number) {
  const { sharerId, partnerId } = pair;
  const { out, back } = links;
  return sql`
    with inserted as (
      insert into click_events (id, short_code, relationship_id, collateral_id, source_org_id,
        target_org_id, occurred_at, method, visitor_hash, user_agent, referrer_host, bot, bot_reason,
        duplicate, verified, reason)
      select
        ${ID_PREFIX} || md5(g::text),
        case when back then null when g % 2 = 0 then ${out.code} end,
        case when back then ${back.relationshipId} else ${out.relationshipId} end,
        case when back then ${back.collateralId} else ${out.collateralId} end,
        case when back then ${partnerId} else ${sharerId} end,
        case when back then ${sharerId} else ${partnerId} end,
        at,
        case when kind = 'head' then 'HEAD' else 'GET' end,
        substr(md5('visitor' || (g % 200000)), 1, 32),
        case when kind = 'user-agent' then 'Mozilla/5.0 (compatible; Googlebot/2.1)'
          else 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36' end,
        case when kind = 'scanner-referrer' then 'nam02.safelinks.protection.outlook.com'
          when g % 3 = 0 then 'mail.google.com' end,
        kind in ('user-agent', 'head', 'scanner-referrer'),
        case when kind in ('user-agent', 'head', 'scanner-referrer') then kind end,
        kind = 'duplicate',
        kind = 'person',
        case when kind = 'person' then 'counted' when kind = 'duplicate' then 'repeat' else 'bot' end
      from (
        select g, g % 4 = 0 as back, now() - random() * interval '30 days' as at,
          case when r < 0.80 then 'person' when r < 0.90 then 'duplicate' when r < 0.96 then 'user-agent'
            when r < 0.98 then 'head' else 'scanner-referrer' end as kind
        from (select g, random() as r from generate_series(${first}::int, ${last}::int) g) numbers
      ) hits
      returning occurred_at, source_org_id, target_org_id, verified
    )
    select (count(*) filter (where verified and source_org_id = ${sharerId}))::int as sent from inserted`;
}

/**
 * A lead on every 1999th seeded click that a person made (an odd step, so both directions get
 * some), and a purchase after a third of them.
 */
const insertConversions = sql`
  with inserted as (
    insert into conversions (id, click_id, type, value_minor, currency, source_org_id, target_org_id, created_at)
    select gen_random_uuid()::text, c.id, t.type, case when t.type = 'purchase' then 4900 end,
      case when t.type = 'purchase' then 'USD' end,
      c.source_org_id, c.target_org_id, least(c.occurred_at + interval '20 minutes', now())
    from generate_series(1, ${SEEDED_CLICKS}::int, 1999) g
    join click_events c on c.id = ${ID_PREFIX} || md5(g::text) and c.verified
    join (values ('signup'), ('purchase')) t(type) on t.type = 'signup' or g % 3 = 1
    returning 1
  )
  select count(*)::int as leads from inserted`;

/**
 * Purchases both ways over the last year in three currencies, as renewals (event ids, no lead) of
 * seeded clicks, their revenue rolled up per pair, day and currency by the conversions' trigger.
 * Answers the US cents the sharer's links earned in the chunk.
 */
const insertRevenue = (pair: Pair, first: number, last: number) => sql`
  with inserted as (
    insert into conversions (id, click_id, type, value_minor, currency, event_id, is_lead, source_org_id,
      target_org_id, created_at)
    select ${ID_PREFIX} || 'conv-' || g, ${ID_PREFIX} || 'conv-click-' || (g / 4), 'purchase',
      1000 + (g::bigint * 7919) % 9000, (array['USD', 'EUR', 'JPY'])[1 + g % 3], ${ID_PREFIX} || 'evt-' || g, false,
      case when g % 2 = 0 then ${pair.sharerId} else ${pair.partnerId} end,
      case when g % 2 = 0 then ${pair.partnerId} else ${pair.sharerId} end,
      now() - make_interval(days => g % 365, secs => g % 86400)
    from generate_series(${first}::int, ${last}::int) g
    returning value_minor, currency, source_org_id
  )
  select coalesce(sum(value_minor) filter (where source_org_id = ${pair.sharerId} and currency = 'USD'), 0)::text
    as cents from inserted`;

export async function seedMetrics(db: Db, pair: Pair) {
  const started = performance.now();
  const links = await findLinks(db, pair);
  let sent = 0;
  for (let first = 1; first <= SEEDED_CLICKS; first += CHUNK) {
    const last = Math.min(first + CHUNK - 1, SEEDED_CLICKS);
    const [chunk] = await rowsOf<{ sent: number }>(db, insertClicks(pair, links, first, last));
    sent += chunk?.sent ?? 0;
  }
  const [conversions] = await rowsOf<{ leads: number }>(db, insertConversions);
  let revenueSentCents = 0;
  for (let first = 1; first <= SEEDED_CONVERSIONS; first += CHUNK) {
    const last = Math.min(first + CHUNK - 1, SEEDED_CONVERSIONS);
    const [chunk] = await rowsOf<{ cents: string }>(db, insertRevenue(pair, first, last));
    revenueSentCents += Number(chunk?.cents ?? 0);
  }
  // Planner statistics, as autovacuum keeps them on a live database: after a bulk load of a million
  // rows, until they are gathered, the planner thinks the tables hold a handful.
  await db.execute(sql`analyze click_events, conversions, pair_daily_stats, pair_daily_revenue`);
  const seconds = (performance.now() - started) / 1000;
  return { sent, leads: conversions?.leads ?? 0, revenueSentCents, seconds };
}

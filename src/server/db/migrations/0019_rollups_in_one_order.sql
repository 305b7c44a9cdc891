-- The periods a day is added into: its year, its month and its month part (days 1-8, 9-16, 17-24,
-- 25 to the month's end), each by its first day. The one definition of the bucketing: the triggers
-- below, the tests and the bench call it, and modules/reciprocity/period-window.ts (`periodStarts`)
-- is checked against it for every day of two years (period-starts.api.test.ts). Date arithmetic
-- only (no date_trunc, which would go through timestamptz and the session's time zone): IMMUTABLE.
-- Not STRICT, so that the planner inlines it into the calling query (a row trigger's upsert took
-- twice as long calling it).
CREATE FUNCTION "buddy_period_starts"("day" date) RETURNS TABLE ("period" text, "starts" date)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p."period", p."starts" FROM (VALUES
    ('year', make_date(extract(year FROM "day")::int, 1, 1)),
    ('month', "day" - (extract(day FROM "day")::int - 1)),
    ('part', "day" - (extract(day FROM "day")::int - 1) + least((extract(day FROM "day")::int - 1) / 8, 3) * 8)
  ) p ("period", "starts")
$$;
--> statement-breakpoint
-- The roll-ups' lock order, decided here and nowhere else (docs/decisions.md, "One lock order"):
-- no writer writes a day itself. Rows of click_events and conversions become days through the
-- statement triggers below, which hand them to pair_daily_stats_add and pair_daily_revenue_add; a
-- backfill or a refund calls those two with its days (signed). Each locks its days sorted by the
-- pair's two organizations whichever the direction, [the currency,] the day, then the source, in
-- one statement; the days' row triggers then lock each day's periods in the same order (pair,
-- [currency,] start, period, side), which rises with the day: a later day's periods that an
-- earlier day has not locked all start after it. A statement takes its roll-up rows in one rising
-- order: the days of pair_daily_stats, then their periods, then the days of pair_daily_revenue,
-- then theirs. Two writers therefore never hold what the other waits for.
CREATE FUNCTION "pair_daily_stats_add"("days" "pair_daily_stats"[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "pair_daily_stats" AS d ("day", "source_org_id", "target_org_id", "clicks", "leads")
  SELECT "day", "source_org_id", "target_org_id", sum("clicks"), sum("leads")
  FROM unnest("days")
  GROUP BY "day", "source_org_id", "target_org_id"
  HAVING sum("clicks") <> 0 OR sum("leads") <> 0
  ORDER BY least("source_org_id", "target_org_id"), greatest("source_org_id", "target_org_id"), "day", "source_org_id"
  ON CONFLICT ("day", "source_org_id", "target_org_id") DO UPDATE SET
    "clicks" = d."clicks" + excluded."clicks",
    "leads" = d."leads" + excluded."leads"
$$;
--> statement-breakpoint
CREATE FUNCTION "pair_daily_revenue_add"("days" "pair_daily_revenue"[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "pair_daily_revenue" AS d ("day", "source_org_id", "target_org_id", "currency", "value_minor",
    "conversions")
  SELECT "day", "source_org_id", "target_org_id", "currency", sum("value_minor"), sum("conversions")
  FROM unnest("days")
  GROUP BY "day", "source_org_id", "target_org_id", "currency"
  HAVING sum("value_minor") <> 0 OR sum("conversions") <> 0
  ORDER BY least("source_org_id", "target_org_id"), greatest("source_org_id", "target_org_id"), "currency", "day",
    "source_org_id"
  ON CONFLICT ("day", "source_org_id", "target_org_id", "currency") DO UPDATE SET
    "value_minor" = d."value_minor" + excluded."value_minor",
    "conversions" = d."conversions" + excluded."conversions"
$$;
--> statement-breakpoint
-- A verified click is a click of its UTC day; the statement's new rows only (an id already stored
-- is not in them: ON CONFLICT DO NOTHING).
CREATE FUNCTION "click_events_into_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "pair_daily_stats_add"(array(
    SELECT row(("occurred_at" AT TIME ZONE 'UTC')::date, "source_org_id", "target_org_id", 1, 0)::"pair_daily_stats"
    FROM "inserted" WHERE "verified"));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A lead counts on its UTC day, and every conversion with a value adds to its currency's revenue
-- (the conversion store's two inserts of one statement, leads and revenue only, in one table).
CREATE FUNCTION "conversions_into_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "pair_daily_stats_add"(array(
    SELECT row(("created_at" AT TIME ZONE 'UTC')::date, "source_org_id", "target_org_id", 0, 1)::"pair_daily_stats"
    FROM "inserted" WHERE "is_lead"));
  PERFORM "pair_daily_revenue_add"(array(
    SELECT row(("created_at" AT TIME ZONE 'UTC')::date, "source_org_id", "target_org_id", "currency",
      "value_minor", 1)::"pair_daily_revenue"
    FROM "inserted" WHERE "value_minor" IS NOT NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "click_events_into_days" AFTER INSERT ON "click_events" REFERENCING NEW TABLE AS "inserted"
  FOR EACH STATEMENT EXECUTE FUNCTION "click_events_into_days"();
--> statement-breakpoint
CREATE TRIGGER "conversions_into_days" AFTER INSERT ON "conversions" REFERENCING NEW TABLE AS "inserted"
  FOR EACH STATEMENT EXECUTE FUNCTION "conversions_into_days"();
--> statement-breakpoint
-- Each period's rows are the sum of its days, whatever writes a day (migration 0016): a row
-- trigger on each daily table adds each change of a daily row (the new row, less the old one) to
-- its periods on both sides, locking them in the order above.
CREATE OR REPLACE FUNCTION "partner_period_stats_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added_clicks integer;
  added_leads integer;
BEGIN
  -- What the add function does (a new day, or more on a day) between two organizations: six rows.
  IF (TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."day" = OLD."day" AND NEW."source_org_id" = OLD."source_org_id"
      AND NEW."target_org_id" = OLD."target_org_id")) AND NEW."source_org_id" <> NEW."target_org_id" THEN
    added_clicks := NEW."clicks" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."clicks" ELSE 0 END;
    added_leads := NEW."leads" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."leads" ELSE 0 END;
    INSERT INTO "partner_period_stats" AS r ("organization_id", "partner_id", "period", "starts", "clicks_sent",
      "clicks_received", "leads_sent", "leads_received")
    SELECT s."organization_id", s."partner_id", p."period", p."starts",
      CASE WHEN s."sends" THEN added_clicks ELSE 0 END, CASE WHEN s."sends" THEN 0 ELSE added_clicks END,
      CASE WHEN s."sends" THEN added_leads ELSE 0 END, CASE WHEN s."sends" THEN 0 ELSE added_leads END
    FROM "buddy_period_starts"(NEW."day") p,
      (VALUES (NEW."source_org_id", NEW."target_org_id", true), (NEW."target_org_id", NEW."source_org_id", false))
        s ("organization_id", "partner_id", "sends")
    ORDER BY p."starts", p."period", s."organization_id"
    ON CONFLICT ("organization_id", "period", "starts", "partner_id") DO UPDATE SET
      "clicks_sent" = r."clicks_sent" + excluded."clicks_sent",
      "clicks_received" = r."clicks_received" + excluded."clicks_received",
      "leads_sent" = r."leads_sent" + excluded."leads_sent",
      "leads_received" = r."leads_received" + excluded."leads_received";
    RETURN NULL;
  END IF;
  -- Anything else (a delete, a row moved, an organization's clicks on its own links): the old row
  -- taken away and the new one added, grouped, in the same order.
  WITH "changed" ("source_org_id", "target_org_id", "day", "clicks", "leads") AS (
    SELECT NEW."source_org_id", NEW."target_org_id", NEW."day", NEW."clicks", NEW."leads" WHERE TG_OP <> 'DELETE'
    UNION ALL
    SELECT OLD."source_org_id", OLD."target_org_id", OLD."day", -OLD."clicks", -OLD."leads" WHERE TG_OP <> 'INSERT'
  )
  INSERT INTO "partner_period_stats" AS r ("organization_id", "partner_id", "period", "starts", "clicks_sent",
    "clicks_received", "leads_sent", "leads_received")
  SELECT s."organization_id", s."partner_id", p."period", p."starts",
    sum(CASE WHEN s."sends" THEN c."clicks" ELSE 0 END), sum(CASE WHEN s."sends" THEN 0 ELSE c."clicks" END),
    sum(CASE WHEN s."sends" THEN c."leads" ELSE 0 END), sum(CASE WHEN s."sends" THEN 0 ELSE c."leads" END)
  FROM "changed" c
  CROSS JOIN LATERAL "buddy_period_starts"(c."day") p
  CROSS JOIN LATERAL (VALUES (c."source_org_id", c."target_org_id", true), (c."target_org_id", c."source_org_id", false))
    s ("organization_id", "partner_id", "sends")
  GROUP BY s."organization_id", s."partner_id", p."period", p."starts"
  HAVING sum(CASE WHEN s."sends" THEN c."clicks" ELSE 0 END) <> 0 OR sum(CASE WHEN s."sends" THEN 0 ELSE c."clicks" END) <> 0
    OR sum(CASE WHEN s."sends" THEN c."leads" ELSE 0 END) <> 0 OR sum(CASE WHEN s."sends" THEN 0 ELSE c."leads" END) <> 0
  ORDER BY least(s."organization_id", s."partner_id"), greatest(s."organization_id", s."partner_id"), p."starts",
    p."period", s."organization_id"
  ON CONFLICT ("organization_id", "period", "starts", "partner_id") DO UPDATE SET
    "clicks_sent" = r."clicks_sent" + excluded."clicks_sent",
    "clicks_received" = r."clicks_received" + excluded."clicks_received",
    "leads_sent" = r."leads_sent" + excluded."leads_sent",
    "leads_received" = r."leads_received" + excluded."leads_received";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "partner_period_revenue_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added_value bigint;
  added_conversions integer;
BEGIN
  IF (TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."day" = OLD."day" AND NEW."source_org_id" = OLD."source_org_id"
      AND NEW."target_org_id" = OLD."target_org_id" AND NEW."currency" = OLD."currency"))
      AND NEW."source_org_id" <> NEW."target_org_id" THEN
    added_value := NEW."value_minor" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."value_minor" ELSE 0 END;
    added_conversions := NEW."conversions" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."conversions" ELSE 0 END;
    INSERT INTO "partner_period_revenue" AS r ("organization_id", "partner_id", "period", "starts", "currency",
      "value_sent", "value_received", "conversions_sent", "conversions_received")
    SELECT s."organization_id", s."partner_id", p."period", p."starts", NEW."currency",
      CASE WHEN s."sends" THEN added_value ELSE 0 END, CASE WHEN s."sends" THEN 0 ELSE added_value END,
      CASE WHEN s."sends" THEN added_conversions ELSE 0 END, CASE WHEN s."sends" THEN 0 ELSE added_conversions END
    FROM "buddy_period_starts"(NEW."day") p,
      (VALUES (NEW."source_org_id", NEW."target_org_id", true), (NEW."target_org_id", NEW."source_org_id", false))
        s ("organization_id", "partner_id", "sends")
    ORDER BY p."starts", p."period", s."organization_id"
    ON CONFLICT ("organization_id", "period", "starts", "partner_id", "currency") DO UPDATE SET
      "value_sent" = r."value_sent" + excluded."value_sent",
      "value_received" = r."value_received" + excluded."value_received",
      "conversions_sent" = r."conversions_sent" + excluded."conversions_sent",
      "conversions_received" = r."conversions_received" + excluded."conversions_received";
    RETURN NULL;
  END IF;
  WITH "changed" ("source_org_id", "target_org_id", "day", "currency", "value_minor", "conversions") AS (
    SELECT NEW."source_org_id", NEW."target_org_id", NEW."day", NEW."currency", NEW."value_minor", NEW."conversions"
    WHERE TG_OP <> 'DELETE'
    UNION ALL
    SELECT OLD."source_org_id", OLD."target_org_id", OLD."day", OLD."currency", -OLD."value_minor", -OLD."conversions"
    WHERE TG_OP <> 'INSERT'
  )
  INSERT INTO "partner_period_revenue" AS r ("organization_id", "partner_id", "period", "starts", "currency",
    "value_sent", "value_received", "conversions_sent", "conversions_received")
  SELECT s."organization_id", s."partner_id", p."period", p."starts", c."currency",
    sum(CASE WHEN s."sends" THEN c."value_minor" ELSE 0 END), sum(CASE WHEN s."sends" THEN 0 ELSE c."value_minor" END),
    sum(CASE WHEN s."sends" THEN c."conversions" ELSE 0 END), sum(CASE WHEN s."sends" THEN 0 ELSE c."conversions" END)
  FROM "changed" c
  CROSS JOIN LATERAL "buddy_period_starts"(c."day") p
  CROSS JOIN LATERAL (VALUES (c."source_org_id", c."target_org_id", true), (c."target_org_id", c."source_org_id", false))
    s ("organization_id", "partner_id", "sends")
  GROUP BY s."organization_id", s."partner_id", p."period", p."starts", c."currency"
  HAVING sum(CASE WHEN s."sends" THEN c."value_minor" ELSE 0 END) <> 0
    OR sum(CASE WHEN s."sends" THEN 0 ELSE c."value_minor" END) <> 0
    OR sum(CASE WHEN s."sends" THEN c."conversions" ELSE 0 END) <> 0
    OR sum(CASE WHEN s."sends" THEN 0 ELSE c."conversions" END) <> 0
  ORDER BY least(s."organization_id", s."partner_id"), greatest(s."organization_id", s."partner_id"), c."currency",
    p."starts", p."period", s."organization_id"
  ON CONFLICT ("organization_id", "period", "starts", "partner_id", "currency") DO UPDATE SET
    "value_sent" = r."value_sent" + excluded."value_sent",
    "value_received" = r."value_received" + excluded."value_received",
    "conversions_sent" = r."conversions_sent" + excluded."conversions_sent",
    "conversions_received" = r."conversions_received" + excluded."conversions_received";
  RETURN NULL;
END $$;

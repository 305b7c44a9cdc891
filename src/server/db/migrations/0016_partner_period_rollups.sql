CREATE TABLE "partner_period_revenue" (
	"organization_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"period" text NOT NULL,
	"starts" date NOT NULL,
	"currency" text NOT NULL,
	"value_sent" bigint DEFAULT 0 NOT NULL,
	"value_received" bigint DEFAULT 0 NOT NULL,
	"conversions_sent" bigint DEFAULT 0 NOT NULL,
	"conversions_received" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "partner_period_revenue_pk" PRIMARY KEY("organization_id","period","starts","partner_id","currency")
);
--> statement-breakpoint
CREATE TABLE "partner_period_stats" (
	"organization_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"period" text NOT NULL,
	"starts" date NOT NULL,
	"clicks_sent" bigint DEFAULT 0 NOT NULL,
	"clicks_received" bigint DEFAULT 0 NOT NULL,
	"leads_sent" bigint DEFAULT 0 NOT NULL,
	"leads_received" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "partner_period_stats_pk" PRIMARY KEY("organization_id","period","starts","partner_id")
);
--> statement-breakpoint
-- Each period's rows are the sum of its days, whatever writes a day: a row trigger on each daily
-- table adds each change of a daily row (the new row, less the old one) to its year, month and
-- month part (days 1-8, 9-16, 17-24, 25 to the end), on both sides. The periods' rows are locked in
-- one order, (the pair's lesser organization, the greater, [currency,] start, year before month
-- before part, organization), which rises with the day: the stores write a batch's days in the
-- matching order, so two batches never wait for each other's periods crosswise.
CREATE FUNCTION "partner_period_stats_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  lo text;
  hi text;
  lo_sends boolean;
  added_clicks integer;
  added_leads integer;
  year_starts date;
  month_starts date;
  part_starts date;
BEGIN
  -- What the stores do (a new day, or more on a day), between two organizations: one statement of
  -- six rows, already in the locking order.
  IF (TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."day" = OLD."day" AND NEW."source_org_id" = OLD."source_org_id"
      AND NEW."target_org_id" = OLD."target_org_id")) AND NEW."source_org_id" <> NEW."target_org_id" THEN
    lo := least(NEW."source_org_id", NEW."target_org_id");
    hi := greatest(NEW."source_org_id", NEW."target_org_id");
    lo_sends := lo = NEW."source_org_id";
    added_clicks := NEW."clicks" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."clicks" ELSE 0 END;
    added_leads := NEW."leads" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."leads" ELSE 0 END;
    year_starts := date_trunc('year', NEW."day")::date;
    month_starts := date_trunc('month', NEW."day")::date;
    part_starts := month_starts + least((extract(day FROM NEW."day")::int - 1) / 8, 3) * 8;
    INSERT INTO "partner_period_stats" AS r ("organization_id", "partner_id", "period", "starts", "clicks_sent",
      "clicks_received", "leads_sent", "leads_received")
    SELECT v.organization_id, v.partner_id, v.period, v.starts,
      CASE WHEN v.sends THEN added_clicks ELSE 0 END, CASE WHEN v.sends THEN 0 ELSE added_clicks END,
      CASE WHEN v.sends THEN added_leads ELSE 0 END, CASE WHEN v.sends THEN 0 ELSE added_leads END
    FROM (VALUES (lo, hi, 'year', year_starts, lo_sends), (hi, lo, 'year', year_starts, NOT lo_sends),
      (lo, hi, 'month', month_starts, lo_sends), (hi, lo, 'month', month_starts, NOT lo_sends),
      (lo, hi, 'part', part_starts, lo_sends), (hi, lo, 'part', part_starts, NOT lo_sends)
    ) v (organization_id, partner_id, period, starts, sends)
    ON CONFLICT ("organization_id", "period", "starts", "partner_id") DO UPDATE SET
      "clicks_sent" = r."clicks_sent" + excluded."clicks_sent",
      "clicks_received" = r."clicks_received" + excluded."clicks_received",
      "leads_sent" = r."leads_sent" + excluded."leads_sent",
      "leads_received" = r."leads_received" + excluded."leads_received";
    RETURN NULL;
  END IF;
  -- Anything else (a delete, a row moved, an organization's clicks on its own links): the old row
  -- taken away and the new one added, grouped, in the same order.
  WITH changed ("source_org_id", "target_org_id", "day", "clicks", "leads") AS (
    SELECT NEW."source_org_id", NEW."target_org_id", NEW."day", NEW."clicks", NEW."leads" WHERE TG_OP <> 'DELETE'
    UNION ALL
    SELECT OLD."source_org_id", OLD."target_org_id", OLD."day", -OLD."clicks", -OLD."leads" WHERE TG_OP <> 'INSERT'
  ), periods AS (
    SELECT c."source_org_id", c."target_org_id", p."period", p."starts", p."rank", c."clicks", c."leads"
    FROM changed c, LATERAL (VALUES
      ('year', date_trunc('year', c."day")::date, 1),
      ('month', date_trunc('month', c."day")::date, 2),
      ('part', date_trunc('month', c."day")::date + least((extract(day FROM c."day")::int - 1) / 8, 3) * 8, 3)
    ) p ("period", "starts", "rank")
  )
  INSERT INTO "partner_period_stats" AS r ("organization_id", "partner_id", "period", "starts", "clicks_sent",
    "clicks_received", "leads_sent", "leads_received")
  SELECT "organization_id", "partner_id", "period", "starts", sum("clicks_sent"), sum("clicks_received"),
    sum("leads_sent"), sum("leads_received")
  FROM (
    SELECT "source_org_id", "target_org_id", "period", "starts", "rank", "clicks", 0, "leads", 0 FROM periods
    UNION ALL
    SELECT "target_org_id", "source_org_id", "period", "starts", "rank", 0, "clicks", 0, "leads" FROM periods
  ) sides ("organization_id", "partner_id", "period", "starts", "rank", "clicks_sent", "clicks_received",
    "leads_sent", "leads_received")
  GROUP BY "organization_id", "partner_id", "period", "starts", "rank"
  ORDER BY least("organization_id", "partner_id"), greatest("organization_id", "partner_id"), "starts", "rank",
    "organization_id"
  ON CONFLICT ("organization_id", "period", "starts", "partner_id") DO UPDATE SET
    "clicks_sent" = r."clicks_sent" + excluded."clicks_sent",
    "clicks_received" = r."clicks_received" + excluded."clicks_received",
    "leads_sent" = r."leads_sent" + excluded."leads_sent",
    "leads_received" = r."leads_received" + excluded."leads_received";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "partner_period_revenue_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  lo text;
  hi text;
  lo_sends boolean;
  added_value bigint;
  added_conversions integer;
  year_starts date;
  month_starts date;
  part_starts date;
BEGIN
  IF (TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."day" = OLD."day" AND NEW."source_org_id" = OLD."source_org_id"
      AND NEW."target_org_id" = OLD."target_org_id" AND NEW."currency" = OLD."currency"))
      AND NEW."source_org_id" <> NEW."target_org_id" THEN
    lo := least(NEW."source_org_id", NEW."target_org_id");
    hi := greatest(NEW."source_org_id", NEW."target_org_id");
    lo_sends := lo = NEW."source_org_id";
    added_value := NEW."value_minor" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."value_minor" ELSE 0 END;
    added_conversions := NEW."conversions" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."conversions" ELSE 0 END;
    year_starts := date_trunc('year', NEW."day")::date;
    month_starts := date_trunc('month', NEW."day")::date;
    part_starts := month_starts + least((extract(day FROM NEW."day")::int - 1) / 8, 3) * 8;
    INSERT INTO "partner_period_revenue" AS r ("organization_id", "partner_id", "period", "starts", "currency",
      "value_sent", "value_received", "conversions_sent", "conversions_received")
    SELECT v.organization_id, v.partner_id, v.period, v.starts, NEW."currency",
      CASE WHEN v.sends THEN added_value ELSE 0 END, CASE WHEN v.sends THEN 0 ELSE added_value END,
      CASE WHEN v.sends THEN added_conversions ELSE 0 END, CASE WHEN v.sends THEN 0 ELSE added_conversions END
    FROM (VALUES (lo, hi, 'year', year_starts, lo_sends), (hi, lo, 'year', year_starts, NOT lo_sends),
      (lo, hi, 'month', month_starts, lo_sends), (hi, lo, 'month', month_starts, NOT lo_sends),
      (lo, hi, 'part', part_starts, lo_sends), (hi, lo, 'part', part_starts, NOT lo_sends)
    ) v (organization_id, partner_id, period, starts, sends)
    ON CONFLICT ("organization_id", "period", "starts", "partner_id", "currency") DO UPDATE SET
      "value_sent" = r."value_sent" + excluded."value_sent",
      "value_received" = r."value_received" + excluded."value_received",
      "conversions_sent" = r."conversions_sent" + excluded."conversions_sent",
      "conversions_received" = r."conversions_received" + excluded."conversions_received";
    RETURN NULL;
  END IF;
  WITH changed ("source_org_id", "target_org_id", "day", "currency", "value_minor", "conversions") AS (
    SELECT NEW."source_org_id", NEW."target_org_id", NEW."day", NEW."currency", NEW."value_minor", NEW."conversions"
    WHERE TG_OP <> 'DELETE'
    UNION ALL
    SELECT OLD."source_org_id", OLD."target_org_id", OLD."day", OLD."currency", -OLD."value_minor", -OLD."conversions"
    WHERE TG_OP <> 'INSERT'
  ), periods AS (
    SELECT c."source_org_id", c."target_org_id", c."currency", p."period", p."starts", p."rank", c."value_minor",
      c."conversions"
    FROM changed c, LATERAL (VALUES
      ('year', date_trunc('year', c."day")::date, 1),
      ('month', date_trunc('month', c."day")::date, 2),
      ('part', date_trunc('month', c."day")::date + least((extract(day FROM c."day")::int - 1) / 8, 3) * 8, 3)
    ) p ("period", "starts", "rank")
  )
  INSERT INTO "partner_period_revenue" AS r ("organization_id", "partner_id", "period", "starts", "currency",
    "value_sent", "value_received", "conversions_sent", "conversions_received")
  SELECT "organization_id", "partner_id", "period", "starts", "currency", sum("value_sent"), sum("value_received"),
    sum("conversions_sent"), sum("conversions_received")
  FROM (
    SELECT "source_org_id", "target_org_id", "period", "starts", "rank", "currency", "value_minor", 0, "conversions", 0
    FROM periods
    UNION ALL
    SELECT "target_org_id", "source_org_id", "period", "starts", "rank", "currency", 0, "value_minor", 0, "conversions"
    FROM periods
  ) sides ("organization_id", "partner_id", "period", "starts", "rank", "currency", "value_sent", "value_received",
    "conversions_sent", "conversions_received")
  GROUP BY "organization_id", "partner_id", "period", "starts", "rank", "currency"
  ORDER BY least("organization_id", "partner_id"), greatest("organization_id", "partner_id"), "currency", "starts",
    "rank", "organization_id"
  ON CONFLICT ("organization_id", "period", "starts", "partner_id", "currency") DO UPDATE SET
    "value_sent" = r."value_sent" + excluded."value_sent",
    "value_received" = r."value_received" + excluded."value_received",
    "conversions_sent" = r."conversions_sent" + excluded."conversions_sent",
    "conversions_received" = r."conversions_received" + excluded."conversions_received";
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The triggers first: creating one locks its table against writes until this migration commits, so
-- no day is written between the periods' backfill below and the triggers taking over.
CREATE TRIGGER "pair_daily_stats_into_periods" AFTER INSERT OR UPDATE OR DELETE ON "pair_daily_stats"
  FOR EACH ROW EXECUTE FUNCTION "partner_period_stats_follow"();
--> statement-breakpoint
CREATE TRIGGER "pair_daily_revenue_into_periods" AFTER INSERT OR UPDATE OR DELETE ON "pair_daily_revenue"
  FOR EACH ROW EXECUTE FUNCTION "partner_period_revenue_follow"();
--> statement-breakpoint
INSERT INTO "partner_period_stats" ("organization_id", "partner_id", "period", "starts", "clicks_sent",
  "clicks_received", "leads_sent", "leads_received")
SELECT "organization_id", "partner_id", "period", "starts", sum("clicks_sent"), sum("clicks_received"),
  sum("leads_sent"), sum("leads_received")
FROM (
  SELECT d."source_org_id", d."target_org_id", p."period", p."starts", d."clicks", 0, d."leads", 0
  FROM "pair_daily_stats" d, LATERAL (VALUES
    ('year', date_trunc('year', d."day")::date),
    ('month', date_trunc('month', d."day")::date),
    ('part', date_trunc('month', d."day")::date + least((extract(day FROM d."day")::int - 1) / 8, 3) * 8)
  ) p ("period", "starts")
  UNION ALL
  SELECT d."target_org_id", d."source_org_id", p."period", p."starts", 0, d."clicks", 0, d."leads"
  FROM "pair_daily_stats" d, LATERAL (VALUES
    ('year', date_trunc('year', d."day")::date),
    ('month', date_trunc('month', d."day")::date),
    ('part', date_trunc('month', d."day")::date + least((extract(day FROM d."day")::int - 1) / 8, 3) * 8)
  ) p ("period", "starts")
) sides ("organization_id", "partner_id", "period", "starts", "clicks_sent", "clicks_received", "leads_sent",
  "leads_received")
GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO "partner_period_revenue" ("organization_id", "partner_id", "period", "starts", "currency", "value_sent",
  "value_received", "conversions_sent", "conversions_received")
SELECT "organization_id", "partner_id", "period", "starts", "currency", sum("value_sent"), sum("value_received"),
  sum("conversions_sent"), sum("conversions_received")
FROM (
  SELECT d."source_org_id", d."target_org_id", p."period", p."starts", d."currency", d."value_minor", 0,
    d."conversions", 0
  FROM "pair_daily_revenue" d, LATERAL (VALUES
    ('year', date_trunc('year', d."day")::date),
    ('month', date_trunc('month', d."day")::date),
    ('part', date_trunc('month', d."day")::date + least((extract(day FROM d."day")::int - 1) / 8, 3) * 8)
  ) p ("period", "starts")
  UNION ALL
  SELECT d."target_org_id", d."source_org_id", p."period", p."starts", d."currency", 0, d."value_minor", 0,
    d."conversions"
  FROM "pair_daily_revenue" d, LATERAL (VALUES
    ('year', date_trunc('year', d."day")::date),
    ('month', date_trunc('month', d."day")::date),
    ('part', date_trunc('month', d."day")::date + least((extract(day FROM d."day")::int - 1) / 8, 3) * 8)
  ) p ("period", "starts")
) sides ("organization_id", "partner_id", "period", "starts", "currency", "value_sent", "value_received",
  "conversions_sent", "conversions_received")
GROUP BY 1, 2, 3, 4, 5;

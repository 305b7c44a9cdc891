ALTER TABLE "pair_daily_stats" ADD COLUMN "proven_leads" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_period_stats" ADD COLUMN "proven_leads_sent" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_period_stats" ADD COLUMN "proven_leads_received" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- CONTRACT §10: the leads an advertiser recorded itself, with its API key or Stripe, are kept
-- apart from the pixel's (which anyone holding a click id can call): the ad weights take them as
-- proof. Leads stored before channels were kept (channel null) prove nothing. The lock order is
-- 0019's, unchanged.
CREATE OR REPLACE FUNCTION "pair_daily_stats_add"("days" "pair_daily_stats"[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "pair_daily_stats" AS d ("day", "source_org_id", "target_org_id", "clicks", "leads", "proven_leads")
  SELECT "day", "source_org_id", "target_org_id", sum("clicks"), sum("leads"), sum("proven_leads")
  FROM unnest("days")
  GROUP BY "day", "source_org_id", "target_org_id"
  HAVING sum("clicks") <> 0 OR sum("leads") <> 0 OR sum("proven_leads") <> 0
  ORDER BY least("source_org_id", "target_org_id"), greatest("source_org_id", "target_org_id"), "day", "source_org_id"
  ON CONFLICT ("day", "source_org_id", "target_org_id") DO UPDATE SET
    "clicks" = d."clicks" + excluded."clicks",
    "leads" = d."leads" + excluded."leads",
    "proven_leads" = d."proven_leads" + excluded."proven_leads"
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "click_events_into_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "pair_daily_stats_add"(array(
    SELECT row(("occurred_at" AT TIME ZONE 'UTC')::date, "source_org_id", "target_org_id", 1, 0, 0)::"pair_daily_stats"
    FROM "inserted" WHERE "verified"));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "conversions_into_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "pair_daily_stats_add"(array(
    SELECT row(("created_at" AT TIME ZONE 'UTC')::date, "source_org_id", "target_org_id", 0, 1,
      CASE WHEN "channel" IN ('key', 'stripe') THEN 1 ELSE 0 END)::"pair_daily_stats"
    FROM "inserted" WHERE "is_lead"));
  PERFORM "pair_daily_revenue_add"(array(
    SELECT row(("created_at" AT TIME ZONE 'UTC')::date, "source_org_id", "target_org_id", "currency",
      "value_minor", 1)::"pair_daily_revenue"
    FROM "inserted" WHERE "value_minor" IS NOT NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "partner_period_stats_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added_clicks integer;
  added_leads integer;
  added_proven integer;
BEGIN
  -- What the add function does (a new day, or more on a day) between two organizations: six rows.
  IF (TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."day" = OLD."day" AND NEW."source_org_id" = OLD."source_org_id"
      AND NEW."target_org_id" = OLD."target_org_id")) AND NEW."source_org_id" <> NEW."target_org_id" THEN
    added_clicks := NEW."clicks" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."clicks" ELSE 0 END;
    added_leads := NEW."leads" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."leads" ELSE 0 END;
    added_proven := NEW."proven_leads" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."proven_leads" ELSE 0 END;
    INSERT INTO "partner_period_stats" AS r ("organization_id", "partner_id", "period", "starts", "clicks_sent",
      "clicks_received", "leads_sent", "leads_received", "proven_leads_sent", "proven_leads_received")
    SELECT s."organization_id", s."partner_id", p."period", p."starts",
      CASE WHEN s."sends" THEN added_clicks ELSE 0 END, CASE WHEN s."sends" THEN 0 ELSE added_clicks END,
      CASE WHEN s."sends" THEN added_leads ELSE 0 END, CASE WHEN s."sends" THEN 0 ELSE added_leads END,
      CASE WHEN s."sends" THEN added_proven ELSE 0 END, CASE WHEN s."sends" THEN 0 ELSE added_proven END
    FROM "buddy_period_starts"(NEW."day") p,
      (VALUES (NEW."source_org_id", NEW."target_org_id", true), (NEW."target_org_id", NEW."source_org_id", false))
        s ("organization_id", "partner_id", "sends")
    ORDER BY p."starts", p."period", s."organization_id"
    ON CONFLICT ("organization_id", "period", "starts", "partner_id") DO UPDATE SET
      "clicks_sent" = r."clicks_sent" + excluded."clicks_sent",
      "clicks_received" = r."clicks_received" + excluded."clicks_received",
      "leads_sent" = r."leads_sent" + excluded."leads_sent",
      "leads_received" = r."leads_received" + excluded."leads_received",
      "proven_leads_sent" = r."proven_leads_sent" + excluded."proven_leads_sent",
      "proven_leads_received" = r."proven_leads_received" + excluded."proven_leads_received";
    RETURN NULL;
  END IF;
  -- Anything else (a delete, a row moved, an organization's clicks on its own links): the old row
  -- taken away and the new one added, grouped, in the same order.
  WITH "changed" ("source_org_id", "target_org_id", "day", "clicks", "leads", "proven") AS (
    SELECT NEW."source_org_id", NEW."target_org_id", NEW."day", NEW."clicks", NEW."leads", NEW."proven_leads"
    WHERE TG_OP <> 'DELETE'
    UNION ALL
    SELECT OLD."source_org_id", OLD."target_org_id", OLD."day", -OLD."clicks", -OLD."leads", -OLD."proven_leads"
    WHERE TG_OP <> 'INSERT'
  )
  INSERT INTO "partner_period_stats" AS r ("organization_id", "partner_id", "period", "starts", "clicks_sent",
    "clicks_received", "leads_sent", "leads_received", "proven_leads_sent", "proven_leads_received")
  SELECT s."organization_id", s."partner_id", p."period", p."starts",
    sum(CASE WHEN s."sends" THEN c."clicks" ELSE 0 END), sum(CASE WHEN s."sends" THEN 0 ELSE c."clicks" END),
    sum(CASE WHEN s."sends" THEN c."leads" ELSE 0 END), sum(CASE WHEN s."sends" THEN 0 ELSE c."leads" END),
    sum(CASE WHEN s."sends" THEN c."proven" ELSE 0 END), sum(CASE WHEN s."sends" THEN 0 ELSE c."proven" END)
  FROM "changed" c
  CROSS JOIN LATERAL "buddy_period_starts"(c."day") p
  CROSS JOIN LATERAL (VALUES (c."source_org_id", c."target_org_id", true), (c."target_org_id", c."source_org_id", false))
    s ("organization_id", "partner_id", "sends")
  GROUP BY s."organization_id", s."partner_id", p."period", p."starts"
  HAVING sum(CASE WHEN s."sends" THEN c."clicks" ELSE 0 END) <> 0 OR sum(CASE WHEN s."sends" THEN 0 ELSE c."clicks" END) <> 0
    OR sum(CASE WHEN s."sends" THEN c."leads" ELSE 0 END) <> 0 OR sum(CASE WHEN s."sends" THEN 0 ELSE c."leads" END) <> 0
    OR sum(CASE WHEN s."sends" THEN c."proven" ELSE 0 END) <> 0 OR sum(CASE WHEN s."sends" THEN 0 ELSE c."proven" END) <> 0
  ORDER BY least(s."organization_id", s."partner_id"), greatest(s."organization_id", s."partner_id"), p."starts",
    p."period", s."organization_id"
  ON CONFLICT ("organization_id", "period", "starts", "partner_id") DO UPDATE SET
    "clicks_sent" = r."clicks_sent" + excluded."clicks_sent",
    "clicks_received" = r."clicks_received" + excluded."clicks_received",
    "leads_sent" = r."leads_sent" + excluded."leads_sent",
    "leads_received" = r."leads_received" + excluded."leads_received",
    "proven_leads_sent" = r."proven_leads_sent" + excluded."proven_leads_sent",
    "proven_leads_received" = r."proven_leads_received" + excluded."proven_leads_received";
  RETURN NULL;
END $$;

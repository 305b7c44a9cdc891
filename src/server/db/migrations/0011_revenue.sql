CREATE TABLE "customer_bindings" (
	"organization_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"click_id" text NOT NULL,
	"source_org_id" text NOT NULL,
	"bound_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_bindings_organization_id_customer_id_pk" PRIMARY KEY("organization_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "pair_daily_revenue" (
	"day" date NOT NULL,
	"source_org_id" text NOT NULL,
	"target_org_id" text NOT NULL,
	"currency" text NOT NULL,
	"value_minor" bigint DEFAULT 0 NOT NULL,
	"conversions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "pair_daily_revenue_day_source_org_id_target_org_id_currency_pk" PRIMARY KEY("day","source_org_id","target_org_id","currency")
);
--> statement-breakpoint
CREATE TABLE "stripe_connections" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"webhook_secret_sealed" text NOT NULL,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "conversions_click_id_type_index";--> statement-breakpoint
ALTER TABLE "conversions" ADD COLUMN "value_minor" bigint;--> statement-breakpoint
ALTER TABLE "conversions" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "conversions" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "conversions" ADD COLUMN "event_id" text;--> statement-breakpoint
ALTER TABLE "conversions" ADD COLUMN "is_lead" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "stripe_connections" ADD CONSTRAINT "stripe_connections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pair_daily_revenue_source_org_id_day_index" ON "pair_daily_revenue" USING btree ("source_org_id","day");--> statement-breakpoint
CREATE INDEX "pair_daily_revenue_target_org_id_day_index" ON "pair_daily_revenue" USING btree ("target_org_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "conversions_one_lead" ON "conversions" USING btree ("click_id","type") WHERE "conversions"."is_lead";--> statement-breakpoint
CREATE UNIQUE INDEX "conversions_event_id" ON "conversions" USING btree ("target_org_id","event_id") WHERE "conversions"."event_id" is not null;--> statement-breakpoint
-- Values recorded before currencies existed were US dollars in floating point: they become cents.
UPDATE "conversions" SET "value_minor" = round("value" * 100)::bigint, "currency" = 'USD'
WHERE "value" IS NOT NULL AND "value" >= 0 AND "value" <= 1e12;--> statement-breakpoint
INSERT INTO "pair_daily_revenue" ("day", "source_org_id", "target_org_id", "currency", "value_minor", "conversions")
SELECT ("created_at" AT TIME ZONE 'UTC')::date, "source_org_id", "target_org_id", "currency", sum("value_minor"), count(*)::int
FROM "conversions" WHERE "value_minor" IS NOT NULL
GROUP BY 1, 2, 3, 4;

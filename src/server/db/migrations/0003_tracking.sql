CREATE TABLE "click_events" (
	"id" text PRIMARY KEY NOT NULL,
	"short_code" text,
	"relationship_id" text NOT NULL,
	"collateral_id" text NOT NULL,
	"source_org_id" text NOT NULL,
	"target_org_id" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"method" text NOT NULL,
	"visitor_hash" text NOT NULL,
	"user_agent" text,
	"referrer_host" text,
	"bot" boolean NOT NULL,
	"bot_reason" text,
	"duplicate" boolean NOT NULL,
	"verified" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversions" (
	"id" text PRIMARY KEY NOT NULL,
	"click_id" text NOT NULL,
	"type" text NOT NULL,
	"value" double precision,
	"metadata" jsonb,
	"source_org_id" text NOT NULL,
	"target_org_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pair_daily_stats" (
	"day" date NOT NULL,
	"source_org_id" text NOT NULL,
	"target_org_id" text NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"leads" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "pair_daily_stats_day_source_org_id_target_org_id_pk" PRIMARY KEY("day","source_org_id","target_org_id")
);
--> statement-breakpoint
CREATE TABLE "short_links" (
	"code" text PRIMARY KEY NOT NULL,
	"link_hash" text NOT NULL,
	"relationship_id" text NOT NULL,
	"collateral_id" text NOT NULL,
	"source_org_id" text NOT NULL,
	"target_org_id" text NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "short_links_linkHash_unique" UNIQUE("link_hash")
);
--> statement-breakpoint
ALTER TABLE "conversions" ADD CONSTRAINT "conversions_click_id_click_events_id_fk" FOREIGN KEY ("click_id") REFERENCES "public"."click_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_links" ADD CONSTRAINT "short_links_source_org_id_organizations_id_fk" FOREIGN KEY ("source_org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_links" ADD CONSTRAINT "short_links_target_org_id_organizations_id_fk" FOREIGN KEY ("target_org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "click_events_source_org_id_occurred_at_index" ON "click_events" USING btree ("source_org_id","occurred_at");--> statement-breakpoint
CREATE INDEX "click_events_target_org_id_occurred_at_index" ON "click_events" USING btree ("target_org_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "conversions_click_id_type_index" ON "conversions" USING btree ("click_id","type");--> statement-breakpoint
CREATE INDEX "conversions_target_org_id_created_at_index" ON "conversions" USING btree ("target_org_id","created_at");--> statement-breakpoint
CREATE INDEX "pair_daily_stats_source_org_id_index" ON "pair_daily_stats" USING btree ("source_org_id");--> statement-breakpoint
CREATE INDEX "pair_daily_stats_target_org_id_index" ON "pair_daily_stats" USING btree ("target_org_id");
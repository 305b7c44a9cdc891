CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"conversion_id" text NOT NULL,
	"refund_id" text NOT NULL,
	"kind" text NOT NULL,
	"value_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"channel" text NOT NULL,
	"source_org_id" text NOT NULL,
	"target_org_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "click_events" ADD COLUMN "reason" text DEFAULT 'counted' NOT NULL;--> statement-breakpoint
ALTER TABLE "conversions" ADD COLUMN "channel" text;--> statement-breakpoint
ALTER TABLE "conversions" ADD COLUMN "payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "conversions" ADD COLUMN "refunded_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_conversion_id_conversions_id_fk" FOREIGN KEY ("conversion_id") REFERENCES "public"."conversions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_refund_id" ON "refunds" USING btree ("organization_id","refund_id");--> statement-breakpoint
CREATE INDEX "refunds_conversion_id_index" ON "refunds" USING btree ("conversion_id");--> statement-breakpoint
CREATE INDEX "refunds_target_org_id_created_at_index" ON "refunds" USING btree ("target_org_id","created_at");--> statement-breakpoint
CREATE INDEX "refunds_source_org_id_created_at_index" ON "refunds" USING btree ("source_org_id","created_at");--> statement-breakpoint
CREATE INDEX "conversions_payment_intent" ON "conversions" USING btree ("target_org_id","payment_intent_id") WHERE "conversions"."payment_intent_id" is not null;--> statement-breakpoint
-- Clicks stored before reasons were kept: theirs, from the flags they were stored with.
UPDATE "click_events" SET "reason" = CASE
  WHEN "verified" THEN 'counted'
  WHEN "bot_reason" = 'burst' THEN 'burst'
  WHEN "bot" THEN 'bot'
  ELSE 'repeat'
END
WHERE NOT "verified";

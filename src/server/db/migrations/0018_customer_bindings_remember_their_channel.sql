ALTER TABLE "customer_bindings" ADD COLUMN "bound_by" text DEFAULT 'key' NOT NULL;--> statement-breakpoint
-- Bindings made before the column: Stripe's are those whose binding conversion carries, as its
-- event id, the Stripe event its metadata names (integrations/stripe-events.ts writes both).
UPDATE "customer_bindings" AS b SET "bound_by" = 'stripe'
  WHERE EXISTS (
    SELECT 1 FROM "conversions" AS c
    WHERE c."target_org_id" = b."organization_id" AND c."customer_id" = b."customer_id"
      AND c."click_id" = b."click_id" AND c."created_at" = b."bound_at"
      AND c."event_id" = c."metadata" #>> '{stripe,event}'
  );

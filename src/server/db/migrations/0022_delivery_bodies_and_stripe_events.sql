DROP TABLE "notification_preferences" CASCADE;--> statement-breakpoint
ALTER TABLE "stripe_connections" ADD COLUMN "last_event_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "request_body" text;
-- Issue 38: deletion on request. A tombstone per deleted organization (its id alone); short links
-- without foreign keys, so a deleted organization's links outlive it and redirect plainly; and the
-- organization a deletion token is for.
CREATE TABLE "deleted_organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"events_erased_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "short_links" DROP CONSTRAINT "short_links_source_org_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "short_links" DROP CONSTRAINT "short_links_target_org_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD COLUMN "organization_id" text;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
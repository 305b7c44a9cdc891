CREATE TABLE "security_log" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text,
	"actor_user_id" text,
	"actor_email" text,
	"action" text NOT NULL,
	"target" text,
	"ip_address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD COLUMN "signup_secret_hash" text;--> statement-breakpoint
ALTER TABLE "security_log" ADD CONSTRAINT "security_log_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_log" ADD CONSTRAINT "security_log_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "security_log_organization_idx" ON "security_log" USING btree ("organization_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "security_log_created_idx" ON "security_log" USING btree ("created_at");--> statement-breakpoint
-- An unverified account's password was chosen by whoever signed up first; it now waits on that
-- sign-up's tokens, which were never paired with a secret, so a verification voids it.
UPDATE "one_time_tokens" AS t SET "password_hash" = u."password_hash" FROM "users" AS u
  WHERE t."user_id" = u."id" AND u."email_verified_at" IS NULL AND t."purpose" = 'verify_email' AND t."used_at" IS NULL;--> statement-breakpoint
UPDATE "users" SET "password_hash" = NULL WHERE "email_verified_at" IS NULL;

CREATE TABLE "domain_claims" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"domain" text NOT NULL,
	"token" text NOT NULL,
	"onboarding" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	CONSTRAINT "domain_claims_userId_unique" UNIQUE("user_id")
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "domain_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "domain_verification_method" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "domain_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "verification_token" text;--> statement-breakpoint
UPDATE "organizations" SET "verification_token" = replace(gen_random_uuid()::text, '-', '');--> statement-breakpoint
ALTER TABLE "organizations" ALTER COLUMN "verification_token" SET NOT NULL;--> statement-breakpoint
-- Organizations set up before proof was required keep their owners when an active admin's
-- verified address is at the domain (proof (a)); the rest lose the badge, ads and approvals until
-- an admin proves the domain.
UPDATE "organizations" o SET "domain_verified_at" = now(), "domain_verification_method" = 'email'
WHERE o."is_platform_user"
  AND o."domain" NOT IN ('gmail.com', 'googlemail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'aol.com', 'proton.me', 'protonmail.com', 'gmx.com', 'gmx.de', 'mail.com', 'yandex.ru', 'mail.ru', 'qq.com', '163.com', 'zoho.com')
  AND EXISTS (
    SELECT 1 FROM "memberships" m JOIN "users" u ON u."id" = m."user_id"
    WHERE m."organization_id" = o."id" AND m."role" = 'admin' AND m."status" = 'active'
      AND u."email_verified_at" IS NOT NULL
      AND (split_part(u."email", '@', 2) = o."domain" OR right(split_part(u."email", '@', 2), length(o."domain") + 1) = '.' || o."domain")
  );--> statement-breakpoint
UPDATE "organizations" SET "is_platform_user" = false WHERE "is_platform_user" AND "domain_verified_at" IS NULL;--> statement-breakpoint
ALTER TABLE "domain_claims" ADD CONSTRAINT "domain_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "domain_claims_domain_index" ON "domain_claims" USING btree ("domain");
CREATE TABLE "domain_proof_reviews" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "pending_domain" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "pending_name" text;--> statement-breakpoint
ALTER TABLE "domain_proof_reviews" ADD CONSTRAINT "domain_proof_reviews_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every e-mail proof is judged again at start-up by the runtime's rule (an address proves its own
-- host only, never at a free-mail provider or a public suffix), and so is every organization set
-- up before proof was required that no proof has covered yet.
INSERT INTO "domain_proof_reviews" ("organization_id")
SELECT "id" FROM "organizations"
WHERE "domain_verification_method" = 'email' OR ("is_platform_user" AND "domain_verified_at" IS NULL);--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "is_platform_user";
CREATE TABLE "app_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dismissed_suggestions" (
	"organization_id" text NOT NULL,
	"target_org_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dismissed_suggestions_organization_id_target_org_id_pk" PRIMARY KEY("organization_id","target_org_id")
);
--> statement-breakpoint
CREATE TABLE "organization_logos" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"image" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relationships" (
	"id" text PRIMARY KEY NOT NULL,
	"source_org_id" text NOT NULL,
	"target_org_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"notes" text,
	"reason" text,
	"confidence" real,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "transactional_email_provider" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "marketing_email_provider" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "logo_version" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "suggestions_generated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dismissed_suggestions" ADD CONSTRAINT "dismissed_suggestions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dismissed_suggestions" ADD CONSTRAINT "dismissed_suggestions_target_org_id_organizations_id_fk" FOREIGN KEY ("target_org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_logos" ADD CONSTRAINT "organization_logos_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relationships" ADD CONSTRAINT "relationships_source_org_id_organizations_id_fk" FOREIGN KEY ("source_org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relationships" ADD CONSTRAINT "relationships_target_org_id_organizations_id_fk" FOREIGN KEY ("target_org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "relationships_source_org_id_target_org_id_index" ON "relationships" USING btree ("source_org_id","target_org_id");--> statement-breakpoint
CREATE INDEX "relationships_target_org_id_type_status_index" ON "relationships" USING btree ("target_org_id","type","status");--> statement-breakpoint
CREATE INDEX "relationships_source_org_id_type_status_index" ON "relationships" USING btree ("source_org_id","type","status");
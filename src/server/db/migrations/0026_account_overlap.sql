-- Issue 39: account overlap (CONTRACT §11). Which lists an organization holds (sizes only), each side's
-- sharing level per partner, and runs: blinded points while a run is in flight, its result after.
CREATE TABLE "overlap_partner_settings" (
	"organization_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"level" text NOT NULL,
	"consented_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "overlap_partner_settings_organization_id_partner_id_pk" PRIMARY KEY("organization_id","partner_id")
);
--> statement-breakpoint
CREATE TABLE "overlap_populations" (
	"organization_id" text NOT NULL,
	"population" text NOT NULL,
	"domain_count" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "overlap_populations_organization_id_population_pk" PRIMARY KEY("organization_id","population")
);
--> statement-breakpoint
CREATE TABLE "overlap_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"starter_id" text NOT NULL,
	"responder_id" text NOT NULL,
	"starter_population" text NOT NULL,
	"responder_population" text NOT NULL,
	"pair_key" text NOT NULL,
	"status" text NOT NULL,
	"level" text,
	"started_by_user_id" text,
	"starter_points" "bytea",
	"responder_doubled" "bytea",
	"responder_points" "bytea",
	"overlap_count" integer,
	"starter_matches" integer[],
	"responder_matches" integer[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "overlap_discovery" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "overlap_partner_settings" ADD CONSTRAINT "overlap_partner_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "overlap_partner_settings" ADD CONSTRAINT "overlap_partner_settings_partner_id_organizations_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "overlap_populations" ADD CONSTRAINT "overlap_populations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "overlap_runs" ADD CONSTRAINT "overlap_runs_starter_id_organizations_id_fk" FOREIGN KEY ("starter_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "overlap_runs" ADD CONSTRAINT "overlap_runs_responder_id_organizations_id_fk" FOREIGN KEY ("responder_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "overlap_runs" ADD CONSTRAINT "overlap_runs_started_by_user_id_users_id_fk" FOREIGN KEY ("started_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "overlap_runs_responder_id_status_index" ON "overlap_runs" USING btree ("responder_id","status");--> statement-breakpoint
CREATE INDEX "overlap_runs_starter_id_status_index" ON "overlap_runs" USING btree ("starter_id","status");--> statement-breakpoint
CREATE INDEX "overlap_runs_pair_key_created_at_index" ON "overlap_runs" USING btree ("pair_key","created_at");
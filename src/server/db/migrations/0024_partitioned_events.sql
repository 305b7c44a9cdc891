-- Issue 38: the event tables that grow fastest become range-partitioned by time, so that retention
-- drops a partition instead of deleting rows (data-lifecycle/partitioned-tables.ts has the periods).
-- Each table is rebuilt as a partitioned one: a new parent with the same columns and a primary key
-- that includes the partitioning column; its partitions, from the oldest row's period to three
-- periods ahead, named as data-lifecycle/partition-periods.ts spells them (start-up makes the
-- rest); the rows copied; then the indexes, foreign keys and the roll-ups' trigger. The old table
-- goes last. docs/operations.md says how to do this instead on a table too large to copy at once.
CREATE FUNCTION "buddy_create_partitions"("parent" text, "period" text, "column_name" text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  "oldest" timestamptz;
  "start" timestamp;
  "stop" timestamp;
  "step" interval := CASE "period" WHEN 'day' THEN interval '1 day' ELSE interval '1 month' END;
  "spelling" text := CASE "period" WHEN 'day' THEN 'YYYY_MM_DD' ELSE 'YYYY_MM' END;
BEGIN
  EXECUTE format('SELECT min(%I) FROM %I', "column_name", "parent" || '_unpartitioned') INTO "oldest";
  "start" := date_trunc("period", least(coalesce("oldest", now()), now()) AT TIME ZONE 'UTC');
  "stop" := date_trunc("period", now() AT TIME ZONE 'UTC') + 3 * "step";
  WHILE "start" <= "stop" LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
      "parent" || '_p' || to_char("start", "spelling"), "parent",
      ("start" AT TIME ZONE 'UTC'), (("start" + "step") AT TIME ZONE 'UTC'));
    "start" := "start" + "step";
  END LOOP;
END $$;
--> statement-breakpoint
ALTER TABLE "click_events" RENAME TO "click_events_unpartitioned";
--> statement-breakpoint
ALTER TABLE "jobs" RENAME TO "jobs_unpartitioned";
--> statement-breakpoint
ALTER TABLE "security_log" RENAME TO "security_log_unpartitioned";
--> statement-breakpoint
ALTER TABLE "webhook_attempts" RENAME TO "webhook_attempts_unpartitioned";
--> statement-breakpoint
CREATE TABLE "click_events" (LIKE "click_events_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
  PARTITION BY RANGE ("occurred_at");
--> statement-breakpoint
CREATE TABLE "jobs" (LIKE "jobs_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
  PARTITION BY RANGE ("created_at");
--> statement-breakpoint
CREATE TABLE "security_log" (LIKE "security_log_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
  PARTITION BY RANGE ("created_at");
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (LIKE "webhook_attempts_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
  PARTITION BY RANGE ("created_at");
--> statement-breakpoint
SELECT "buddy_create_partitions"('click_events', 'month', 'occurred_at');
--> statement-breakpoint
SELECT "buddy_create_partitions"('jobs', 'day', 'created_at');
--> statement-breakpoint
SELECT "buddy_create_partitions"('security_log', 'month', 'created_at');
--> statement-breakpoint
SELECT "buddy_create_partitions"('webhook_attempts', 'day', 'created_at');
--> statement-breakpoint
DROP FUNCTION "buddy_create_partitions"(text, text, text);
--> statement-breakpoint
INSERT INTO "click_events" SELECT * FROM "click_events_unpartitioned";
--> statement-breakpoint
INSERT INTO "jobs" SELECT * FROM "jobs_unpartitioned";
--> statement-breakpoint
INSERT INTO "security_log" SELECT * FROM "security_log_unpartitioned";
--> statement-breakpoint
INSERT INTO "webhook_attempts" SELECT * FROM "webhook_attempts_unpartitioned";
--> statement-breakpoint
DROP TABLE "click_events_unpartitioned";
--> statement-breakpoint
DROP TABLE "jobs_unpartitioned";
--> statement-breakpoint
DROP TABLE "security_log_unpartitioned";
--> statement-breakpoint
DROP TABLE "webhook_attempts_unpartitioned";
--> statement-breakpoint
ALTER TABLE "click_events" ADD CONSTRAINT "click_events_id_occurred_at_pk" PRIMARY KEY ("id", "occurred_at");
--> statement-breakpoint
CREATE INDEX "click_events_source_org_id_occurred_at_index" ON "click_events" ("source_org_id", "occurred_at");
--> statement-breakpoint
CREATE INDEX "click_events_target_org_id_occurred_at_index" ON "click_events" ("target_org_id", "occurred_at");
--> statement-breakpoint
-- The roll-ups' trigger once the copy is in: the copied clicks are already counted in them.
CREATE TRIGGER "click_events_into_days" AFTER INSERT ON "click_events" REFERENCING NEW TABLE AS "inserted"
  FOR EACH STATEMENT EXECUTE FUNCTION "click_events_into_days"();
--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_id_created_at_pk" PRIMARY KEY ("id", "created_at");
--> statement-breakpoint
CREATE INDEX "jobs_due" ON "jobs" ("run_at") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "jobs_partition_key_created_at_index" ON "jobs" ("partition_key", "created_at");
--> statement-breakpoint
CREATE INDEX "jobs_finished_at_index" ON "jobs" ("finished_at");
--> statement-breakpoint
ALTER TABLE "security_log" ADD CONSTRAINT "security_log_id_created_at_pk" PRIMARY KEY ("id", "created_at");
--> statement-breakpoint
ALTER TABLE "security_log" ADD CONSTRAINT "security_log_organization_id_organizations_id_fk"
  FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE cascade;
--> statement-breakpoint
ALTER TABLE "security_log" ADD CONSTRAINT "security_log_actor_user_id_users_id_fk"
  FOREIGN KEY ("actor_user_id") REFERENCES "users"("id") ON DELETE set null;
--> statement-breakpoint
CREATE INDEX "security_log_organization_idx" ON "security_log" ("organization_id", "created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "security_log_created_idx" ON "security_log" ("created_at");
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_id_created_at_pk" PRIMARY KEY ("id", "created_at");
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_endpoint_id_webhook_endpoints_id_fk"
  FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE cascade;
--> statement-breakpoint
CREATE INDEX "webhook_attempts_endpoint_id_created_at_index" ON "webhook_attempts" ("endpoint_id", "created_at");

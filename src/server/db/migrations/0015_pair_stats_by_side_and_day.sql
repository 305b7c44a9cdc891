CREATE INDEX "pair_daily_stats_source_org_id_day_index" ON "pair_daily_stats" USING btree ("source_org_id","day");--> statement-breakpoint
CREATE INDEX "pair_daily_stats_target_org_id_day_index" ON "pair_daily_stats" USING btree ("target_org_id","day");--> statement-breakpoint
DROP INDEX "pair_daily_stats_source_org_id_index";--> statement-breakpoint
DROP INDEX "pair_daily_stats_target_org_id_index";

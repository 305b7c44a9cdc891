ALTER TABLE "conversions" DROP CONSTRAINT "conversions_click_id_click_events_id_fk";

-- Mail still waiting (or kept as history) moves into the one outbox; then its own table goes.
INSERT INTO "jobs" ("id", "kind", "payload", "status", "attempts", "run_at", "locked_until", "last_error", "created_at", "finished_at")
SELECT "id", 'mail',
  jsonb_build_object('kind', "kind", 'to', "to", 'subject', "subject", 'text', "text", 'html', "html"),
  CASE "status" WHEN 'sent' THEN 'done' ELSE "status" END,
  "attempts", "next_attempt_at", "locked_until", "last_error", "created_at", "sent_at"
FROM "mail_outbox";--> statement-breakpoint
DROP TABLE "mail_outbox" CASCADE;

import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { jobs } from "../db/schema";
import type { MailPayload } from "../mail/mail-jobs";

/** The outbox's mail jobs, oldest first, with the mail's fields beside the job's own. */
export async function mailJobs(database: Pick<Database, "db">) {
  const rows = await database.db
    .select()
    .from(jobs)
    .where(eq(jobs.kind, "mail"))
    .orderBy(asc(jobs.createdAt));
  return rows.map(({ payload, ...job }) => ({ ...job, ...(payload as MailPayload) }));
}

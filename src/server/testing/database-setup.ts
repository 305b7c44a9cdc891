import { POSTGRES_SERVER_URL, preparePgliteDump, prepareTemplateDatabase } from "./database";

/**
 * The server project's tests copy one migrated database instead of migrating each of their own
 * (openTestDatabase): it is made here, once per run, before any test file starts.
 */
export default async function setup() {
  if (process.env.TEST_DATABASE_URL) await prepareTemplateDatabase(POSTGRES_SERVER_URL);
  else await preparePgliteDump();
}

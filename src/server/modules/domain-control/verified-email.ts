import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { users } from "../../db/schema";

/** The acting user's address, if verified: proof (a) counts only verified addresses. */
export async function verifiedEmailOf(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ email: users.email, verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.verifiedAt ? row.email : null;
}

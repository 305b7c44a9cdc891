import { and, eq, gt, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { type OneTimeTokenPurpose, oneTimeTokens } from "../../db/schema";
import { generateToken, hashToken } from "../../lib/tokens";

export const TOKEN_TTL_MS: Record<OneTimeTokenPurpose, number> = {
  verify_email: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};

export async function issueOneTimeToken(db: DbOrTx, userId: string, purpose: OneTimeTokenPurpose) {
  const token = generateToken();
  await db.insert(oneTimeTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS[purpose]),
  });
  return token;
}

/**
 * Marks the token used and returns its user, in one conditional UPDATE: two concurrent
 * requests with the same token cannot both succeed.
 */
export async function consumeOneTimeToken(
  db: DbOrTx,
  token: string,
  purpose: OneTimeTokenPurpose,
): Promise<string | null> {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: oneTimeTokens.userId });
  return row?.userId ?? null;
}

/** After a reset, older reset links for the same user stop working too. */
export async function invalidateOneTimeTokens(db: DbOrTx, userId: string, purpose: OneTimeTokenPurpose) {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(
      and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)),
    );
}

import { DAY_MS } from "@shared/days";
import { and, desc, eq, gt, inArray, isNotNull, isNull, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { type OneTimeTokenPurpose, oneTimeTokens } from "../../db/schema";
import { generateToken, hashToken } from "../../lib/tokens";

export const TOKEN_TTL_MS: Record<OneTimeTokenPurpose, number> = {
  verify_email: DAY_MS,
  reset_password: 60 * 60 * 1000,
  delete_account: 60 * 60 * 1000,
  delete_organization: 60 * 60 * 1000,
};

/** What a sign-up leaves on its verification token: the password it chose, and its secret's hash. */
export type PendingSignup = { passwordHash: string; signupSecretHash: string };

export async function issueOneTimeToken(
  db: DbOrTx,
  userId: string,
  purpose: OneTimeTokenPurpose,
  extra?: PendingSignup | { organizationId: string },
) {
  const token = generateToken();
  await db.insert(oneTimeTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS[purpose]),
    ...extra,
  });
  return token;
}

/**
 * Marks the token used and returns its row, in one conditional UPDATE: two concurrent requests
 * with the same token cannot both succeed. Only a token of one of `purposes`, unused and unexpired.
 */
async function consume(db: DbOrTx, token: string, purposes: readonly OneTimeTokenPurpose[]) {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        inArray(oneTimeTokens.purpose, [...purposes]),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    )
    .returning({
      userId: oneTimeTokens.userId,
      purpose: oneTimeTokens.purpose,
      organizationId: oneTimeTokens.organizationId,
    });
  return row ?? null;
}

/** Uses up a token of `purpose`, and returns its user. */
export async function consumeOneTimeToken(
  db: DbOrTx,
  token: string,
  purpose: OneTimeTokenPurpose,
): Promise<string | null> {
  return (await consume(db, token, [purpose]))?.userId ?? null;
}

/** Uses up a deletion token: whose it is, what it deletes, and which organization (if one). */
export function consumeDeletionToken(db: DbOrTx, token: string) {
  return consume(db, token, ["delete_account", "delete_organization"]);
}

/** The address's sign-ups whose links have not expired. */
const signupsOf = (userId: string) =>
  and(
    eq(oneTimeTokens.userId, userId),
    eq(oneTimeTokens.purpose, "verify_email"),
    gt(oneTimeTokens.expiresAt, new Date()),
  );

/**
 * Consumes a verification token and returns its user with the password of the sign-up that
 * `signupSecret` belongs to, when that sign-up is one of this user's still pending (the token's
 * own, or a later one made from the same browser, whose secret replaced the first). Otherwise the
 * password is null: whoever verifies proved the mailbox, not that they chose any password.
 */
export async function consumeVerificationToken(
  db: DbOrTx,
  token: string,
  signupSecret: string | undefined,
): Promise<{ userId: string; passwordHash: string | null } | null> {
  const userId = await consumeOneTimeToken(db, token, "verify_email");
  if (!userId) return null;
  if (!signupSecret) return { userId, passwordHash: null };
  const [signup] = await db
    .select({ passwordHash: oneTimeTokens.passwordHash })
    .from(oneTimeTokens)
    .where(
      and(
        signupsOf(userId),
        eq(oneTimeTokens.signupSecretHash, hashToken(signupSecret)),
        // The token just consumed is the sign-up's own; any other must still be pending.
        or(isNull(oneTimeTokens.usedAt), eq(oneTimeTokens.tokenHash, hashToken(token))),
      ),
    )
    .limit(1);
  return { userId, passwordHash: signup?.passwordHash ?? null };
}

/** The password the address's newest pending sign-up chose, if any. */
export async function newestSignupPassword(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ passwordHash: oneTimeTokens.passwordHash })
    .from(oneTimeTokens)
    .where(and(signupsOf(userId), isNull(oneTimeTokens.usedAt), isNotNull(oneTimeTokens.passwordHash)))
    .orderBy(desc(oneTimeTokens.createdAt))
    .limit(1);
  return row?.passwordHash ?? null;
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

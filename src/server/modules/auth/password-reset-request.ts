import { normalizeEmail } from "@shared/auth";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { resetPasswordMail } from "../../mail/account-mails";
import { enqueueComposedMail, type MailComposer } from "../../mail/mail-jobs";
import type { AuthDeps } from "./auth.service";
import { issueOneTimeToken } from "./one-time-tokens";

/**
 * Always answers the same (CONTRACT §3), and in the same time: the request only queues a reset
 * asked for the address, one identical row whether or not it has an account. Looking the account
 * up here took measurably longer for an existing address; the outbox worker decides instead.
 */
export async function requestPasswordReset(deps: AuthDeps, emailInput: string): Promise<void> {
  await enqueueComposedMail(deps.db, "password_reset", normalizeEmail(emailInput));
  deps.onMailQueued();
}

/**
 * The worker's half: a fresh reset token and its mail for an account, nothing for an unknown
 * address. The raw token exists only in the mail being sent; each attempt issues its own.
 */
export function passwordResetComposer(publicUrl: string): MailComposer {
  return (db: Db, email: string) =>
    db.transaction(async (tx) => {
      const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
      if (!row) return null;
      const token = await issueOneTimeToken(tx, row.id, "reset_password");
      return resetPasswordMail(email, publicUrl, token);
    });
}

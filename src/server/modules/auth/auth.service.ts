import { AUTH_MESSAGES, normalizeEmail, type User } from "@shared/auth";
import { eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { users } from "../../db/schema";
import { AppError, badRequest, unauthorized } from "../../errors";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "../../lib/passwords";
import { accountExistsMail, verificationMail } from "../../mail/account-mails";
import { enqueueMail } from "../../mail/mail-jobs";
import { loadUser } from "./current-user";
import { consumeOneTimeToken, invalidateOneTimeTokens, issueOneTimeToken } from "./one-time-tokens";
import { createSession, revokeAllSessions } from "./sessions";

/**
 * Joins the organization that invited this address when the token is valid for it; returns
 * whether the user joined. Team invitations sit above auth (team revokes sessions), so app.ts
 * hands their acceptance in rather than auth importing the team module.
 */
export type InvitationAcceptor = (
  tx: DbOrTx,
  input: { token: string; userId: string; email: string },
) => Promise<boolean>;

export type AuthDeps = { db: Db; publicUrl: string; onMailQueued: () => void };
/** Signing up or in may follow an invitation link. */
export type AccountEntryDeps = AuthDeps & { acceptInvitation: InvitationAcceptor };

/**
 * CONTRACT §3: the answer is the same whether or not the address has an account. A new address
 * gets a verification mail; an unverified one a fresh link; a verified one a notice to its owner.
 * A new or unverified address with a valid invitation token for it joins the inviting
 * organization at once (`invited`), both answered alike; only the mailbox that received the
 * token can learn that the address had no verified account.
 */
export async function signUp(
  deps: AccountEntryDeps,
  input: { email: string; password: string; inviteToken?: string | undefined },
): Promise<{ invited: boolean }> {
  const email = normalizeEmail(input.email);
  // Hash first in every case, so timing does not tell whether the address exists.
  const passwordHash = await hashPassword(input.password);
  const { inviteToken } = input;
  const invited = await deps.db.transaction(async (tx) => {
    // The invitation mail reached this address, so an account joining through it needs no
    // second proof of it.
    const joinsThroughInvitation = async (userId: string) =>
      inviteToken ? deps.acceptInvitation(tx, { token: inviteToken, userId, email }) : false;
    const [created] = await tx
      .insert(users)
      .values({ email, passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (created) {
      if (await joinsThroughInvitation(created.id)) {
        await tx.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, created.id));
        return true;
      }
      const token = await issueOneTimeToken(tx, created.id, "verify_email");
      await enqueueMail(tx, verificationMail(email, deps.publicUrl, token));
      return false;
    }
    const [existing] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
    if (!existing) return false;
    if (existing.emailVerifiedAt) {
      await enqueueMail(tx, accountExistsMail(email, deps.publicUrl));
      return false;
    }
    if (await joinsThroughInvitation(existing.id)) {
      // Never verified, so whoever signed up earlier never proved the address; the invitation
      // mail now does. The password typed now replaces theirs (else someone pre-registering the
      // address would keep a way in), and whatever that earlier sign-up could hold is void.
      await tx
        .update(users)
        .set({ passwordHash, emailVerifiedAt: new Date(), updatedAt: new Date() })
        .where(eq(users.id, existing.id));
      await revokeAllSessions(tx, existing.id);
      await invalidateOneTimeTokens(tx, existing.id, "verify_email");
      return true;
    }
    // Without an invitation the first sign-up's password stays: a stranger must not set the
    // password of an account the owner is about to verify.
    const token = await issueOneTimeToken(tx, existing.id, "verify_email");
    await enqueueMail(tx, verificationMail(email, deps.publicUrl, token));
    return false;
  });
  if (!invited) deps.onMailQueued();
  return { invited };
}

export async function logIn(
  deps: AccountEntryDeps,
  input: { email: string; password: string; inviteToken?: string | undefined },
): Promise<{ token: string; user: User }> {
  const email = normalizeEmail(input.email);
  const [row] = await deps.db.select().from(users).where(eq(users.email, email)).limit(1);
  const valid = row?.passwordHash
    ? await verifyPassword(row.passwordHash, input.password)
    : await verifyAgainstDummy(input.password);
  if (!row || !valid) throw unauthorized(AUTH_MESSAGES.invalidCredentials);
  if (!row.emailVerifiedAt) throw new AppError(403, AUTH_MESSAGES.unverified);
  // Someone invited who already had an account signs in through the invitation link: joining is
  // their choice, made by following the link, never a side effect of signing in.
  const { inviteToken } = input;
  if (inviteToken) {
    await deps.db.transaction((tx) =>
      deps.acceptInvitation(tx, { token: inviteToken, userId: row.id, email }),
    );
  }
  return startSession(deps.db, row.id);
}

async function startSession(db: Db, userId: string) {
  const token = await createSession(db, userId);
  const user = await loadUser(db, userId);
  if (!user) throw unauthorized(AUTH_MESSAGES.invalidCredentials);
  return { token, user };
}

export async function verifyEmail(deps: AuthDeps, token: string): Promise<{ token: string; user: User }> {
  const userId = await deps.db.transaction(async (tx) => {
    const id = await consumeOneTimeToken(tx, token, "verify_email");
    if (!id) return null;
    await tx
      .update(users)
      .set({ emailVerifiedAt: new Date(), updatedAt: new Date() })
      .where(eq(users.id, id));
    return id;
  });
  if (!userId) throw badRequest(AUTH_MESSAGES.invalidVerificationToken);
  return startSession(deps.db, userId);
}

/**
 * Sets the new password, ends every session of the user and voids other reset links. The link
 * came through the mailbox, so it also proves the address.
 */
export async function resetPassword(
  deps: AuthDeps,
  input: { token: string; password: string },
): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  const done = await deps.db.transaction(async (tx) => {
    const userId = await consumeOneTimeToken(tx, input.token, "reset_password");
    if (!userId) return false;
    const [row] = await tx
      .select({ verified: users.emailVerifiedAt })
      .from(users)
      .where(eq(users.id, userId));
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date(), emailVerifiedAt: row?.verified ?? new Date() })
      .where(eq(users.id, userId));
    await revokeAllSessions(tx, userId);
    await invalidateOneTimeTokens(tx, userId, "reset_password");
    return true;
  });
  if (!done) throw badRequest(AUTH_MESSAGES.invalidResetToken);
}

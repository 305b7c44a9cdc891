import { AUTH_MESSAGES, normalizeEmail, type User } from "@shared/auth";
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { memberships, users } from "../../db/schema";
import { AppError, badRequest, unauthorized } from "../../errors";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "../../lib/passwords";
import { generateToken, hashToken } from "../../lib/tokens";
import { accountExistsMail, passwordChangedMail, verificationMail } from "../../mail/account-mails";
import { enqueueMail } from "../../mail/mail-jobs";
import { recordSecurityEvent } from "../security-log/security-log.service";
import { loadUser } from "./current-user";
import {
  consumeOneTimeToken,
  consumeVerificationToken,
  invalidateOneTimeTokens,
  issueOneTimeToken,
  newestSignupPassword,
} from "./one-time-tokens";
import { createSession, revokeAllSessions } from "./sessions";

/**
 * Joins the organization that invited this address when the token is valid for it; returns
 * whether the user joined. Team invitations sit above auth (team revokes sessions), so app.ts
 * hands their acceptance in rather than auth importing the team module.
 */
export type InvitationAcceptor = (
  tx: DbOrTx,
  input: { token: string; userId: string; email: string; ipAddress: string | null },
) => Promise<boolean>;

export type AuthDeps = {
  db: Db;
  publicUrl: string;
  onMailQueued: () => void;
  /**
   * Told of every session started, with the organizations the user is an active member of and
   * the client address it was started from: clicks from that network source on those
   * organizations' links are their own (CONTRACT §5). Never fails a sign-in.
   */
  onSignIn?: (organizationIds: string[], ipAddress: string) => Promise<void>;
};
/** Signing up or in may follow an invitation link. */
export type AccountEntryDeps = AuthDeps & { acceptInvitation: InvitationAcceptor };

/** Who is acting, for the security log: the request's client address. */
export type RequestOrigin = { ipAddress: string | null };

/**
 * CONTRACT §3: the answer is the same whether or not the address has an account. A new or
 * unverified address gets a verification mail for this sign-up, whose password waits on that
 * token with the hash of the `signupSecret` answered to this browser; a verified one a notice to
 * its owner. A new or unverified address with a valid invitation token for it joins the inviting
 * organization at once (`invited`), both answered alike; only the mailbox that received the
 * token can learn that the address had no verified account.
 */
export async function signUp(
  deps: AccountEntryDeps,
  input: { email: string; password: string; inviteToken?: string | undefined },
  origin: RequestOrigin,
): Promise<{ invited: boolean; signupSecret: string }> {
  const email = normalizeEmail(input.email);
  // Hash first in every case, so timing does not tell whether the address exists.
  const passwordHash = await hashPassword(input.password);
  // Answered in every case, so its presence tells nothing either; stored only for a pending sign-up.
  const signupSecret = generateToken();
  const pending = { passwordHash, signupSecretHash: hashToken(signupSecret) };
  const { inviteToken } = input;
  const invited = await deps.db.transaction(async (tx) => {
    // The invitation mail reached this address, so an account joining through it needs no
    // second proof of it, and the password typed with it is the mailbox holder's.
    const joinsThroughInvitation = async (userId: string) => {
      if (
        !inviteToken ||
        !(await deps.acceptInvitation(tx, { token: inviteToken, userId, email, ...origin }))
      )
        return false;
      await tx
        .update(users)
        .set({ passwordHash, emailVerifiedAt: new Date(), updatedAt: new Date() })
        .where(eq(users.id, userId));
      // Whatever an earlier, unproved sign-up of the address could hold is void.
      await revokeAllSessions(tx, userId);
      await invalidateOneTimeTokens(tx, userId, "verify_email");
      return true;
    };
    const [created] = await tx
      .insert(users)
      .values({ email, passwordHash: null })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    const [account] = created
      ? [{ id: created.id, emailVerifiedAt: null }]
      : await tx
          .select({ id: users.id, emailVerifiedAt: users.emailVerifiedAt })
          .from(users)
          .where(eq(users.email, email))
          .limit(1);
    if (!account) return false;
    if (account.emailVerifiedAt) {
      // Its owner is told. The sign-up is kept like any other, its link never mailed: signing in
      // with its password answers "verify first", as for an address without an account.
      await issueOneTimeToken(tx, account.id, "verify_email", pending);
      await enqueueMail(tx, accountExistsMail(email, deps.publicUrl));
      return false;
    }
    if (await joinsThroughInvitation(account.id)) return true;
    // Each sign-up of an unproved address gets its own link; no sign-up's password is usable
    // before its verification, so a stranger's earlier sign-up decides nothing.
    const token = await issueOneTimeToken(tx, account.id, "verify_email", pending);
    await enqueueMail(tx, verificationMail(email, deps.publicUrl, token));
    return false;
  });
  if (!invited) deps.onMailQueued();
  return { invited, signupSecret };
}

export async function logIn(
  deps: AccountEntryDeps,
  input: { email: string; password: string; inviteToken?: string | undefined },
  origin: RequestOrigin,
): Promise<{ token: string; user: User }> {
  const email = normalizeEmail(input.email);
  const [row] = await deps.db.select().from(users).where(eq(users.email, email)).limit(1);
  // Every refusal costs two password checks, whatever the address: its answer and its time say
  // nothing of whether the address has an account, verified or not.
  const accountHash = row?.emailVerifiedAt ? row.passwordHash : null;
  const valid = accountHash
    ? await verifyPassword(accountHash, input.password)
    : await verifyAgainstDummy(input.password);
  if (!row || !valid) {
    // Not the account's password: the newest sign-up's, which is "verify first" (CONTRACT §3),
    // also for a verified address (signUp keeps such a sign-up unmailed), so signing up and then
    // in tells a stranger nothing. Any other password is refused like an unknown address.
    const pending = await newestSignupPassword(deps.db, row?.id ?? "");
    const chosen = pending
      ? await verifyPassword(pending, input.password)
      : await verifyAgainstDummy(input.password);
    if (row && chosen) throw new AppError(403, AUTH_MESSAGES.unverified);
    throw unauthorized(AUTH_MESSAGES.invalidCredentials);
  }
  // Someone invited who already had an account signs in through the invitation link: joining is
  // their choice, made by following the link, never a side effect of signing in.
  const { inviteToken } = input;
  if (inviteToken) {
    await deps.db.transaction((tx) =>
      deps.acceptInvitation(tx, { token: inviteToken, userId: row.id, email, ...origin }),
    );
  }
  return startSession(deps, row.id, origin);
}

/** Every session starts here: signing in and the sign-in that verifying an address is. */
async function startSession({ db, onSignIn }: AuthDeps, userId: string, origin: RequestOrigin) {
  const token = await db.transaction(async (tx) => {
    const session = await createSession(tx, userId);
    await recordSecurityEvent(tx, { userId, ipAddress: origin.ipAddress }, { action: "sign_in" });
    return session;
  });
  const user = await loadUser(db, userId);
  if (!user) throw unauthorized(AUTH_MESSAGES.invalidCredentials);
  if (onSignIn && origin.ipAddress) {
    const member = await db
      .select({ organizationId: memberships.organizationId })
      .from(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.status, "active")));
    if (member.length > 0)
      await onSignIn(
        member.map((row) => row.organizationId),
        origin.ipAddress,
      );
  }
  return { token, user };
}

/**
 * Verifies the mailbox and signs the verifier in (CONTRACT §3). With the secret of a sign-up of
 * this address, that sign-up's password stands. Without it the verifier proved the mailbox but
 * chose no password: any password is void, and a fresh reset token (`setPasswordToken`) lets
 * them choose one. Every other pending link of the address dies with this one.
 */
export async function verifyEmail(
  deps: AuthDeps,
  input: { token: string; signupSecret?: string | undefined },
  origin: RequestOrigin,
): Promise<{ token: string; user: User; setPasswordToken: string | null }> {
  const verified = await deps.db.transaction(async (tx) => {
    const consumed = await consumeVerificationToken(tx, input.token, input.signupSecret);
    if (!consumed) return null;
    const { userId, passwordHash } = consumed;
    await tx
      .update(users)
      .set({ emailVerifiedAt: new Date(), passwordHash, updatedAt: new Date() })
      .where(eq(users.id, userId));
    await invalidateOneTimeTokens(tx, userId, "verify_email");
    const setPasswordToken = passwordHash ? null : await issueOneTimeToken(tx, userId, "reset_password");
    return { userId, setPasswordToken };
  });
  if (!verified) throw badRequest(AUTH_MESSAGES.invalidVerificationToken);
  const session = await startSession(deps, verified.userId, origin);
  return { ...session, setPasswordToken: verified.setPasswordToken };
}

/**
 * Sets the new password, ends every session of the user and voids other reset links. The link
 * came through the mailbox, so it also proves the address.
 */
export async function resetPassword(
  deps: AuthDeps,
  input: { token: string; password: string },
  origin: RequestOrigin,
): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  const done = await deps.db.transaction(async (tx) => {
    const userId = await consumeOneTimeToken(tx, input.token, "reset_password");
    if (!userId) return false;
    const [row] = await tx
      .select({ verified: users.emailVerifiedAt, email: users.email })
      .from(users)
      .where(eq(users.id, userId));
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date(), emailVerifiedAt: row?.verified ?? new Date() })
      .where(eq(users.id, userId));
    await revokeAllSessions(tx, userId);
    await invalidateOneTimeTokens(tx, userId, "reset_password");
    // The mailbox is proved now: no other sign-up's link of the address may verify it later.
    await invalidateOneTimeTokens(tx, userId, "verify_email");
    await recordSecurityEvent(tx, { userId, ipAddress: origin.ipAddress }, { action: "password_reset" });
    if (row?.email) await enqueueMail(tx, passwordChangedMail(row.email, deps.publicUrl));
    return true;
  });
  if (!done) throw badRequest(AUTH_MESSAGES.invalidResetToken);
  deps.onMailQueued();
}

import { renderMail } from "./mail-layout";

const IGNORE = "If you did not ask for this, you can ignore this e-mail.";

export function verificationMail(to: string, publicUrl: string, token: string) {
  return renderMail(to, {
    subject: "Verify your e-mail address for Buddy",
    heading: "Welcome to Buddy",
    paragraphs: [
      "Please confirm your e-mail address to finish creating your account. The link is valid for 24 hours.",
      "Opened in the browser you signed up with, it keeps the password you chose. Opened anywhere else, it makes the account yours and asks you to choose a password, so a sign-up you did not make never gets in.",
    ],
    action: {
      label: "Verify e-mail address",
      url: `${publicUrl}/verify-email?token=${encodeURIComponent(token)}`,
    },
    footer: IGNORE,
  });
}

/** Sent on a sign-up for an address that already has an account: the owner learns, nobody else does. */
export function accountExistsMail(to: string, publicUrl: string) {
  return renderMail(to, {
    subject: "You already have a Buddy account",
    heading: "You already have an account",
    paragraphs: [
      "Someone, probably you, tried to create a Buddy account with this e-mail address, but it already has one.",
      "Sign in instead, or reset your password if you have forgotten it.",
    ],
    action: { label: "Reset your password", url: `${publicUrl}/forgot-password` },
    footer: IGNORE,
  });
}

export function resetPasswordMail(to: string, publicUrl: string, token: string) {
  return renderMail(to, {
    subject: "Reset your Buddy password",
    heading: "Reset your password",
    paragraphs: [
      "We received a request to reset your password. The link is valid for 1 hour and works once.",
      `Once it is reset, check what was done with your account in the security log: ${publicUrl}/dashboard/settings?tab=security-log`,
    ],
    action: {
      label: "Reset password",
      url: `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`,
    },
    footer: IGNORE,
  });
}

/**
 * Sent when a password is set through a reset link: the owner learns of it, and where to check
 * what was done with the account (the security log, CONTRACT §3).
 */
export function passwordChangedMail(to: string, publicUrl: string) {
  return renderMail(to, {
    subject: "Your Buddy password was changed",
    heading: "Your password was changed",
    paragraphs: [
      "The password of your Buddy account was just set through a reset link, and every other session of the account was signed out.",
      "Check what was done with your account: your company's security log lists every sign-in, API key, webhook, invitation and role change, with the address it came from. Admins see it in Settings.",
      "If you did not do this, reset your password again at once and tell your company's Buddy admin.",
    ],
    action: {
      label: "Check what was done with your account",
      url: `${publicUrl}/dashboard/settings?tab=security-log`,
    },
  });
}

/**
 * Issue 38: the link that deletes an organization or an account for good, mailed to whoever asked
 * (a mailbox's owner confirms, not just a session). It opens a page with a button: the link itself
 * changes nothing, since mail scanners open links.
 */
export function deletionConfirmMail(
  to: string,
  publicUrl: string,
  token: string,
  what: { kind: "organization"; name: string } | { kind: "account" },
) {
  const url = `${publicUrl}/confirm-deletion?token=${encodeURIComponent(token)}`;
  if (what.kind === "organization")
    return renderMail(to, {
      subject: `Confirm deleting ${what.name} from Buddy`,
      heading: `Delete ${what.name}?`,
      paragraphs: [
        `You asked to delete ${what.name} from Buddy. Its members' accounts, API keys, webhooks, ads, links and every click and conversion it recorded will be deleted for good. Its partners keep their own totals, shown as a deleted organization.`,
        "The link is valid for 1 hour and works once. It opens a page where you confirm.",
      ],
      action: { label: "Confirm the deletion", url },
      footer: IGNORE,
    });
  return renderMail(to, {
    subject: "Confirm deleting your Buddy account",
    heading: "Delete your account?",
    paragraphs: [
      "You asked to delete your Buddy account. Your address, sessions and everything that names you will be deleted for good; your organization stays.",
      "The link is valid for 1 hour and works once. It opens a page where you confirm.",
    ],
    action: { label: "Confirm the deletion", url },
    footer: IGNORE,
  });
}

import { renderMail } from "./mail-layout";

const IGNORE = "If you did not ask for this, you can ignore this e-mail.";

export function verificationMail(to: string, publicUrl: string, token: string) {
  return renderMail(to, {
    subject: "Verify your e-mail address for Buddy",
    heading: "Welcome to Buddy",
    paragraphs: [
      "Please confirm your e-mail address to finish creating your account. The link is valid for 24 hours.",
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
    ],
    action: {
      label: "Reset password",
      url: `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`,
    },
    footer: IGNORE,
  });
}

/**
 * CONTRACT §3: a sign-up answers a `signupSecret`; this browser keeps it so that verifying the
 * mailed link here also keeps the password chosen here. Only the newest is kept: the server
 * matches it against any pending sign-up of the address, so an older mail's link still works.
 * Verifying clears local storage (SPEC §4), and with it the secret.
 */
const SIGNUP_SECRET_KEY = "buddy.signupSecret";

export function keepSignupSecret(secret: string) {
  localStorage.setItem(SIGNUP_SECRET_KEY, secret);
}

export function heldSignupSecret(): string | null {
  return localStorage.getItem(SIGNUP_SECRET_KEY);
}

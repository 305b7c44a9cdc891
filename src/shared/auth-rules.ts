import * as z from "zod/mini";
import { textRule } from "./text-rule";

// Written with zod/mini: the sign-in page loads these rules and nothing else of zod, so it stays
// small on a phone. The server validates with the very same schemas.
/** SPEC §5 and §9: one place for every account rule, used by the server and the forms. */
export const PASSWORD_MIN_LENGTH = 8;
/** Argon2 on an unbounded string is a cheap denial of service; no real password is longer. */
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const TOKEN_MAX_LENGTH = 256;

export const PASSWORD_RULES = [
  {
    id: "length",
    label: "At least 8 characters",
    message: "Password must be at least 8 characters",
    test: (value: string) => value.length >= PASSWORD_MIN_LENGTH,
  },
  {
    id: "uppercase",
    label: "One uppercase letter",
    message: "Password must contain at least one uppercase letter",
    test: (value: string) => /[A-Z]/.test(value),
  },
  {
    id: "lowercase",
    label: "One lowercase letter",
    message: "Password must contain at least one lowercase letter",
    test: (value: string) => /[a-z]/.test(value),
  },
  {
    id: "number",
    label: "One number",
    message: "Password must contain at least one number",
    test: (value: string) => /[0-9]/.test(value),
  },
  {
    id: "special",
    label: "One special character",
    message: "Password must contain at least one special character",
    test: (value: string) => /[^A-Za-z0-9]/.test(value),
  },
] as const;

export type PasswordRule = (typeof PASSWORD_RULES)[number];

/** One account per mailbox, however the address is typed: accounts and invitations compare it so. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const emailSchema = z.pipe(
  textRule("Email", { error: "Invalid email address" }).check(
    z.maxLength(EMAIL_MAX_LENGTH, { error: "Invalid email address" }),
  ),
  z.email({ error: "Invalid email address" }),
);

const passwordTooLong = `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;

/** Registration: every complexity rule, reported in the order of SPEC §5. */
export const registerPasswordSchema = textRule("Password", {
  error: "Password is required",
  trim: false,
}).check(
  z.maxLength(PASSWORD_MAX_LENGTH, { error: passwordTooLong }),
  z.superRefine((value, ctx) => {
    for (const rule of PASSWORD_RULES) {
      if (!rule.test(value)) ctx.addIssue({ code: "custom", message: rule.message });
    }
  }),
);

/** Reset: the length rule only (SPEC §5). */
export const newPasswordSchema = textRule("Password", { error: "Password is required", trim: false }).check(
  z.minLength(PASSWORD_MIN_LENGTH, { error: "Password must be at least 8 characters" }),
  z.maxLength(PASSWORD_MAX_LENGTH, { error: passwordTooLong }),
);

/** From a team invitation link (`/auth?invite=…`): signing up or in through it joins that organization. */
const inviteTokenSchema = z.optional(
  textRule("Invitation", { trim: false }).check(
    z.maxLength(TOKEN_MAX_LENGTH, { error: "Invalid invitation" }),
  ),
);

export const loginSchema = z.object({
  email: emailSchema,
  password: textRule("Password", { error: "Password is required", trim: false }).check(
    z.minLength(1, { error: "Password is required" }),
    z.maxLength(PASSWORD_MAX_LENGTH, { error: passwordTooLong }),
  ),
  inviteToken: inviteTokenSchema,
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  email: emailSchema,
  password: registerPasswordSchema,
  inviteToken: inviteTokenSchema,
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const authRequestSchema = z.discriminatedUnion(
  "mode",
  [
    z.extend(loginSchema, { mode: z.literal("login") }),
    z.extend(registerSchema, { mode: z.literal("signup") }),
  ],
  { error: "mode must be login or signup" },
);
export type AuthRequest = z.infer<typeof authRequestSchema>;

export const tokenSchema = textRule("Token", { error: "Token is required", trim: false }).check(
  z.minLength(1, { error: "Token is required" }),
  z.maxLength(TOKEN_MAX_LENGTH, { error: "Invalid token" }),
);

/** CONTRACT §3: answered by a sign-up, kept by the browser that chose the password. */
export const signupSecretSchema = textRule("signupSecret", { trim: false }).check(
  z.maxLength(TOKEN_MAX_LENGTH, { error: "Invalid signupSecret" }),
);

export const verifyEmailSchema = z.object({
  token: tokenSchema,
  signupSecret: z.optional(signupSecretSchema),
});
export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z.object({ token: tokenSchema, password: newPasswordSchema });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** Texts the server answers with; the web shows them as given (SPEC §8). */
export const AUTH_MESSAGES = {
  registered: "Registration successful! Please check your email to verify your account.",
  /** Registering through a team invitation: the mailed link already proved the address. */
  registeredInvited: "Registration successful! You can now sign in.",
  loggedIn: "Login successful",
  invalidCredentials: "Invalid email or password",
  unverified:
    "Please verify your email address before signing in. Check your inbox for the verification link.",
  emailVerified: "Email verified successfully",
  invalidVerificationToken: "Invalid or expired verification token",
  resetRequested: "If an account exists for that address, we've sent a link to reset your password.",
  passwordReset: "Password reset successfully",
  invalidResetToken: "Invalid or expired reset token",
  loggedOut: "Logged out successfully",
  sessionExpired: "Your session has expired. Please sign in again.",
  unauthenticated: "Authentication required",
} as const;

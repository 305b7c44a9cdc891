import type { SessionResponse, SignupResponse } from "@shared/auth";
import { type LoginInput, loginSchema, type RegisterInput, registerSchema } from "@shared/auth-rules";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FieldFrame } from "@/components/ui/field-frame";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { PasswordChecklist } from "@/features/auth/password-checklist";
import { useSchemaForm } from "@/features/auth/use-schema-form";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { paths } from "@/lib/paths";
import { keepSignupSecret } from "@/lib/signup-secret";
import { clearSession } from "@/lib/token-store";

export type CredentialsMode = "login" | "register";

/** How the page shows a notice: the app's toaster, or one loaded on first use (auth-main.tsx). */
export type Notify = (kind: "success" | "error", message: string) => void;

type CredentialsFormProps = {
  mode: CredentialsMode;
  notify: Notify;
  /** Login: the session to start (the caller shows the notice and goes home). */
  onSignedIn?: (session: SessionResponse) => void;
  /** Register only: the account exists; the server's message says what comes next. */
  onRegistered?: (message: string) => void;
  /** From a team invitation's link: the invited address… */
  defaultEmail?: string;
  /** …and its token: signing up or in with it joins the inviting organization. */
  inviteToken?: string;
};

const AUTH_PATH = "/api/auth";

/** The e-mail + password form of both auth tabs; the mode picks the shared schema and the call. */
export function CredentialsForm({
  mode,
  notify,
  onSignedIn,
  onRegistered,
  defaultEmail = "",
  inviteToken,
}: CredentialsFormProps) {
  const isLogin = mode === "login";
  const form = useSchemaForm(isLogin ? loginSchema : registerSchema, { email: defaultEmail, password: "" });
  const [busy, setBusy] = useState(false);

  async function signIn(input: LoginInput) {
    try {
      const session = await apiRequest<SessionResponse>(AUTH_PATH, {
        method: "POST",
        body: { ...input, mode: "login" },
      });
      onSignedIn?.(session);
    } catch (error) {
      notify("error", errorMessage(error, "Failed to login"));
    }
  }

  async function signUp(input: RegisterInput) {
    try {
      const { message, signupSecret } = await apiRequest<SignupResponse>(AUTH_PATH, {
        method: "POST",
        body: { ...input, mode: "signup" },
      });
      keepSignupSecret(signupSecret);
      notify("success", "Registration successful");
      form.reset();
      onRegistered?.(message);
    } catch (error) {
      notify("error", errorMessage(error, "Failed to register"));
    }
  }

  const onSubmit = form.handleSubmit((values) => {
    // SPEC §4: every sign-in or sign-up starts from empty storage and an empty cache.
    clearSession();
    const input = inviteToken ? { ...values, inviteToken } : values;
    setBusy(true);
    (isLogin ? signIn(input) : signUp(input)).finally(() => setBusy(false));
  });

  const email = form.field("email");
  const password = form.field("password");
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={isLogin ? "Login" : "Register"}>
      <FieldFrame {...email.frame} label="Email">
        <Input {...email.controlProps} type="email" autoComplete="email" placeholder="you@company.com" />
      </FieldFrame>
      <FieldFrame
        {...password.frame}
        label="Password"
        labelAction={
          isLogin ? (
            // A page of the app: from the sign-in page it is a new document either way.
            <a
              href={paths.forgotPassword}
              className="text-primary text-sm underline-offset-4 hover:underline"
            >
              Forgot your password?
            </a>
          ) : null
        }
      >
        <Input
          {...password.controlProps}
          type="password"
          autoComplete={isLogin ? "current-password" : "new-password"}
        />
        {isLogin ? null : <PasswordChecklist password={form.values.password ?? ""} />}
      </FieldFrame>
      <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
        {busy ? <Spinner /> : null}
        {isLogin ? "Sign in" : "Sign up"}
      </Button>
    </form>
  );
}

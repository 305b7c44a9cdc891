import { zodResolver } from "@hookform/resolvers/zod";
import { loginSchema, registerSchema } from "@shared/auth";
import { useForm, useWatch } from "react-hook-form";
import { Link } from "react-router";
import { paths } from "@/app/paths";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Spinner } from "@/components/ui/spinner";
import { useLogin, useRegister } from "@/features/auth/api";
import { PasswordChecklist } from "@/features/auth/password-checklist";
import { clearSession } from "@/lib/session";

export type CredentialsMode = "login" | "register";

type CredentialsFormProps = {
  mode: CredentialsMode;
  /** Register only: the account exists; the server's message says what comes next. */
  onRegistered?: (message: string) => void;
  /** From a team invitation's link: the invited address… */
  defaultEmail?: string;
  /** …and its token: signing up or in with it joins the inviting organization. */
  inviteToken?: string;
};

/** The e-mail + password form of both auth tabs; the mode picks the shared schema and the call. */
export function CredentialsForm({
  mode,
  onRegistered,
  defaultEmail = "",
  inviteToken,
}: CredentialsFormProps) {
  const isLogin = mode === "login";
  const form = useForm({
    resolver: zodResolver(isLogin ? loginSchema : registerSchema),
    defaultValues: { email: defaultEmail, password: "" },
  });
  const password = useWatch({ control: form.control, name: "password" });
  const login = useLogin();
  const register = useRegister();
  const busy = login.isPending || register.isPending;

  const onSubmit = form.handleSubmit((values) => {
    // SPEC §4: every sign-in or sign-up starts from empty storage and an empty cache.
    clearSession();
    if (isLogin) {
      login.mutate(inviteToken ? { ...values, inviteToken } : values);
      return;
    }
    register.mutate(inviteToken ? { ...values, inviteToken } : values, {
      onSuccess: ({ message }) => {
        form.reset();
        onRegistered?.(message);
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={isLogin ? "Login" : "Register"}>
      <FormField
        control={form.control}
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@company.com"
      />
      <FormField
        control={form.control}
        name="password"
        label="Password"
        type="password"
        autoComplete={isLogin ? "current-password" : "new-password"}
        labelAction={
          isLogin ? (
            <Link
              to={paths.forgotPassword}
              className="text-primary text-sm underline-offset-4 hover:underline"
            >
              Forgot your password?
            </Link>
          ) : null
        }
      >
        {isLogin ? null : <PasswordChecklist password={password} />}
      </FormField>
      <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
        {busy ? <Spinner /> : null}
        {isLogin ? "Sign in" : "Sign up"}
      </Button>
    </form>
  );
}

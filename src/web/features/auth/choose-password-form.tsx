import type { SessionResponse } from "@shared/auth";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useChoosePassword } from "@/features/auth/api";
import { NewPasswordFields, useNewPasswordForm } from "@/features/auth/new-password-fields";
import { useStartSession } from "@/lib/session";

/**
 * CONTRACT §3: the mailbox was verified from a browser that did not sign up, so the password
 * chosen at sign-up was not kept. The person chooses one here, or later through "Forgot your
 * password?".
 */
export function ChoosePasswordForm({
  session,
  setPasswordToken,
}: {
  session: SessionResponse;
  setPasswordToken: string;
}) {
  const choosePassword = useChoosePassword(session.user.email, setPasswordToken);
  const startSession = useStartSession();
  const form = useNewPasswordForm();
  const busy = choosePassword.isPending || choosePassword.isSuccess;
  const onSubmit = form.handleSubmit(({ password }) => choosePassword.mutate(password));

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Choose a password">
      <p role="status" className="text-muted-foreground text-sm">
        Your email address is verified. This browser didn't sign up, so the password chosen at sign-up was not
        kept: choose the password you will sign in with.
      </p>
      <NewPasswordFields control={form.control} />
      <Button type="submit" className="w-full" disabled={busy}>
        {choosePassword.isPending ? <Spinner /> : null}
        Set password
      </Button>
      <Button
        type="button"
        variant="ghost"
        className="w-full"
        disabled={busy}
        onClick={() => startSession(session)}
      >
        Skip for now
      </Button>
    </form>
  );
}

import { useEffect } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Button, buttonVariants } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useResetPassword } from "@/features/auth/api";
import { NewPasswordFields, useNewPasswordForm } from "@/features/auth/new-password-fields";
import { paths } from "@/lib/paths";
import { cn } from "@/lib/utils";

/** SPEC §9: the redirect to /auth after a successful reset. */
const REDIRECT_AFTER_RESET_MS = 2000;

export function ResetPasswordForm() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token");
  const navigate = useNavigate();
  const resetPassword = useResetPassword();
  const form = useNewPasswordForm();

  useEffect(() => {
    if (!resetPassword.isSuccess) return;
    const timer = setTimeout(() => navigate(paths.auth, { replace: true }), REDIRECT_AFTER_RESET_MS);
    return () => clearTimeout(timer);
  }, [resetPassword.isSuccess, navigate]);

  if (!token) {
    return (
      <div className="grid gap-4 text-center">
        <p role="alert" className="text-destructive">
          No reset token found
        </p>
        <Link to={paths.forgotPassword} className={cn(buttonVariants({ variant: "outline" }), "w-full")}>
          Send a new reset link
        </Link>
      </div>
    );
  }

  const onSubmit = form.handleSubmit(({ password }) => resetPassword.mutate({ token, password }));
  const busy = resetPassword.isPending || resetPassword.isSuccess;

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Reset password">
      <NewPasswordFields control={form.control} />
      <Button type="submit" className="w-full" disabled={busy}>
        {resetPassword.isPending ? <Spinner /> : null}
        Reset Password
      </Button>
    </form>
  );
}

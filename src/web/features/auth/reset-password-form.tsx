import { zodResolver } from "@hookform/resolvers/zod";
import { newPasswordSchema } from "@shared/auth";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { z } from "zod";
import { Button, buttonVariants } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Spinner } from "@/components/ui/spinner";
import { useResetPassword } from "@/features/auth/api";
import { paths } from "@/lib/paths";
import { cn } from "@/lib/utils";

/** SPEC §9: the redirect to /auth after a successful reset. */
const REDIRECT_AFTER_RESET_MS = 2000;

/** SPEC §5 Reset: the shared length rule, plus a confirmation that must match. */
const resetPasswordFormSchema = z
  .object({ password: newPasswordSchema, confirmPassword: z.string() })
  .refine((values) => values.password === values.confirmPassword, {
    error: "Passwords don't match",
    path: ["confirmPassword"],
  });

export function ResetPasswordForm() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token");
  const navigate = useNavigate();
  const resetPassword = useResetPassword();
  const form = useForm({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: "", confirmPassword: "" },
  });

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
      <FormField
        control={form.control}
        name="password"
        label="New Password"
        type="password"
        autoComplete="new-password"
      />
      <FormField
        control={form.control}
        name="confirmPassword"
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {resetPassword.isPending ? <Spinner /> : null}
        Reset Password
      </Button>
    </form>
  );
}

import { zodResolver } from "@hookform/resolvers/zod";
import { forgotPasswordSchema } from "@shared/auth";
import { MailCheck } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { Button, buttonVariants } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Spinner } from "@/components/ui/spinner";
import { useForgotPassword } from "@/features/auth/api";
import { paths } from "@/lib/paths";
import { cn } from "@/lib/utils";

const linkClass = "text-center text-primary text-sm underline-offset-4 hover:underline";

/** SPEC §2 Forgot password: one e-mail field, then the check-your-email notice. */
export function ForgotPasswordForm() {
  const [sent, setSent] = useState(false);
  const form = useForm({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: "" } });
  const forgotPassword = useForgotPassword();

  const onSubmit = form.handleSubmit((values) => {
    forgotPassword.mutate(values, { onSuccess: () => setSent(true) });
  });

  if (sent) {
    return (
      <div className="grid gap-4">
        <div role="status" className="flex flex-col items-center gap-3 text-center">
          <MailCheck className="size-10 text-success" aria-hidden="true" />
          <p className="text-sm">
            Check your email for a link to reset your password. If it doesn't appear within a few minutes,
            check your spam folder.
          </p>
        </div>
        <Link to={paths.auth} className={cn(buttonVariants(), "w-full")}>
          Return to login
        </Link>
        <Button
          variant="outline"
          className="w-full"
          onClick={() => {
            form.reset();
            setSent(false);
          }}
        >
          Try again
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Reset your password">
      <FormField
        control={form.control}
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@company.com"
      />
      <Button type="submit" className="w-full" disabled={forgotPassword.isPending}>
        {forgotPassword.isPending ? <Spinner /> : null}
        Send reset link
      </Button>
      <Link to={paths.auth} className={linkClass}>
        Back to login
      </Link>
    </form>
  );
}

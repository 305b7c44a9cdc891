import { CircleX } from "lucide-react";
import { useNavigate, useSearchParams } from "react-router";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useEmailVerification } from "@/features/auth/api";
import { ChoosePasswordForm } from "@/features/auth/choose-password-form";
import { paths } from "@/lib/paths";

/**
 * SPEC §2 Verify email: pending, then either home (on success) or the error and a way back. In a
 * browser that did not sign up (CONTRACT §3), one click first, and a password to choose after.
 */
export function VerifyEmailStatus() {
  const [searchParams] = useSearchParams();
  const verification = useEmailVerification(searchParams.get("token"));
  const navigate = useNavigate();

  switch (verification.step) {
    case "pending":
      return (
        <div className="grid gap-4 text-center">
          <p role="status" className="text-muted-foreground">
            Verifying your email address...
          </p>
          <Button disabled className="w-full">
            <Spinner />
            Verifying...
          </Button>
        </div>
      );
    case "confirm":
      return (
        <div className="grid gap-4 text-center">
          <p className="text-muted-foreground">
            This browser didn't sign up for this account. Verify your email address here, then choose the
            password you will sign in with.
          </p>
          <Button className="w-full" onClick={verification.confirm}>
            Verify my email address
          </Button>
        </div>
      );
    case "choose-password":
      return (
        <ChoosePasswordForm session={verification.session} setPasswordToken={verification.setPasswordToken} />
      );
    case "error":
      return (
        <div className="grid gap-4 text-center">
          <div role="alert" className="flex flex-col items-center gap-2 text-destructive">
            <CircleX className="size-10" aria-hidden="true" />
            <p>{verification.error}</p>
          </div>
          <Button className="w-full" onClick={() => navigate(paths.auth)}>
            Return to Login
          </Button>
        </div>
      );
  }
}

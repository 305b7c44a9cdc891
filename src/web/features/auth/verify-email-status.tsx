import { CircleX } from "lucide-react";
import { useNavigate, useSearchParams } from "react-router";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useEmailVerification } from "@/features/auth/api";
import { paths } from "@/lib/paths";

/** SPEC §2 Verify email: pending, then either home (on success) or the error and a way back. */
export function VerifyEmailStatus() {
  const [searchParams] = useSearchParams();
  const { error } = useEmailVerification(searchParams.get("token"));
  const navigate = useNavigate();

  if (error === null) {
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
  }

  return (
    <div className="grid gap-4 text-center">
      <div role="alert" className="flex flex-col items-center gap-2 text-destructive">
        <CircleX className="size-10" aria-hidden="true" />
        <p>{error}</p>
      </div>
      <Button className="w-full" onClick={() => navigate(paths.auth)}>
        Return to Login
      </Button>
    </div>
  );
}

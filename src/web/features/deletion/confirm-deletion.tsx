import { DELETION_MESSAGES } from "@shared/deletion";
import { Link, useSearchParams } from "react-router";
import { Button, buttonVariants } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useConfirmDeletion } from "@/features/deletion/api";
import { errorMessage } from "@/lib/api-client";
import { paths } from "@/lib/paths";
import { clearSession } from "@/lib/token-store";
import { cn } from "@/lib/utils";

/**
 * The mailed link's page (issue 38): opening it deletes nothing, since mail scanners open links;
 * the button does. Once done, this browser's session is forgotten: it belonged to what was deleted
 * (an account), or to an organization that is no more.
 */
export function ConfirmDeletion() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token");
  const confirm = useConfirmDeletion();

  if (!token) {
    return (
      <p role="alert" className="text-center text-destructive">
        {DELETION_MESSAGES.invalidLink}
      </p>
    );
  }
  if (confirm.isSuccess) {
    return (
      <div className="grid gap-4 text-center">
        <p role="status">{confirm.data.message}</p>
        <Link to={paths.auth} className={cn(buttonVariants({ variant: "outline" }), "w-full")}>
          Go to sign in
        </Link>
      </div>
    );
  }
  return (
    <div className="grid gap-4">
      {confirm.isError ? (
        <p role="alert" className="text-center text-destructive">
          {errorMessage(confirm.error, DELETION_MESSAGES.invalidLink)}
        </p>
      ) : null}
      <Button
        type="button"
        variant="destructive"
        className="w-full"
        disabled={confirm.isPending}
        onClick={() => confirm.mutate(token, { onSuccess: () => clearSession() })}
      >
        {confirm.isPending ? <Spinner /> : null}
        Delete for good
      </Button>
    </div>
  );
}

import { Construction, LogOut } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useSignOut } from "@/lib/session";

const SETUP_PLACEHOLDER_TEXT = "Company set-up is not built yet — it arrives in a coming release.";

/** Stands in for the three onboarding steps (a later issue); keeps SPEC's Logout way out. */
export function SetupPlaceholder() {
  const signOut = useSignOut();

  return (
    <div className="grid gap-6 text-center">
      <div className="flex flex-col items-center gap-3">
        <Construction className="size-10 text-muted-foreground" aria-hidden="true" />
        <p className="text-muted-foreground text-sm">{SETUP_PLACEHOLDER_TEXT}</p>
      </div>
      <Button
        variant="outline"
        className="w-full"
        onClick={() => signOut.mutate()}
        disabled={signOut.isPending}
      >
        <LogOut />
        Logout
      </Button>
    </div>
  );
}

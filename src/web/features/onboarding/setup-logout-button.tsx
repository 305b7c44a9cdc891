import { LogOut } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useSignOut } from "@/lib/session";

/**
 * SPEC §2 onboarding Logout: storage and cache are cleared, then /auth. The guard follows the
 * cleared token at once, which covers the original's ~100 ms wait before redirecting.
 */
export function SetupLogoutButton() {
  const signOut = useSignOut();
  return (
    <Button type="button" variant="ghost" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      <LogOut />
      Logout
    </Button>
  );
}

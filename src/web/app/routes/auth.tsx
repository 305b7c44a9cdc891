import type { SessionResponse } from "@shared/auth";
import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router";
import { toast } from "@/components/ui/toast";
import { AuthPage } from "@/features/auth/auth-page";
import { useStartSession } from "@/lib/session";

const notify = (kind: "success" | "error", message: string) => toast[kind](message);

/** /auth inside the app (after signing out, or in development): the router owns the address. */
export function AuthRoute() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const startSession = useStartSession();
  const replaceSearch = useCallback(
    (next: string) => navigate({ pathname, search: next }, { replace: true }),
    [navigate, pathname],
  );
  const onSignedIn = useCallback(
    (session: SessionResponse) => {
      toast.success("Login successful");
      startSession(session);
    },
    [startSession],
  );
  return <AuthPage search={search} replaceSearch={replaceSearch} notify={notify} onSignedIn={onSignedIn} />;
}

// The sign-in page's own entry (auth.html, served for /auth, built on its own: vite.auth.config.ts):
// the form, its schema and React, without the router, the query cache or any screen of the app.
import "./index.css";
import type { SessionResponse } from "@shared/auth";
import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { type Notice, saveNotice } from "@/app/notice";
import { LazyToaster } from "@/components/ui/lazy-toaster";
import { toast } from "@/components/ui/toast";
import { AuthPage } from "@/features/auth/auth-page";
import { paths } from "@/lib/paths";
import { getToken, setToken } from "@/lib/token-store";

const container = document.getElementById("root");
if (!container) throw new Error("auth.html has no #root element");
const root = createRoot(container);

/** The app is another page (index.html): a signed-in user goes there, with the notice to show. */
function enterApp(path: string, notice?: Notice) {
  if (notice) saveNotice(notice);
  window.location.replace(path);
}

function SignInPage() {
  const [search, setSearch] = useState(window.location.search);
  const replaceSearch = (next: string) => {
    window.history.replaceState(window.history.state, "", `${window.location.pathname}${next}`);
    setSearch(next);
  };
  const onSignedIn = (session: SessionResponse) => {
    setToken(session.token);
    // The app's guards send a user who has not finished onboarding on to /setup.
    enterApp(paths.dashboard, { kind: "success", message: "Login successful" });
  };
  return (
    <>
      <AuthPage
        search={search}
        replaceSearch={replaceSearch}
        notify={(kind, message) => toast[kind](message)}
        onSignedIn={onSignedIn}
      />
      <LazyToaster />
    </>
  );
}

// SPEC §2: a signed-in user does not stay on /auth; the app's own guard sends them on.
if (getToken()) {
  enterApp(paths.dashboard);
} else {
  root.render(
    <StrictMode>
      <SignInPage />
    </StrictMode>,
  );
}

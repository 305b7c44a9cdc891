import type { SessionResponse } from "@shared/auth";
import { AUTH_MESSAGES } from "@shared/auth-rules";
import { MailCheck } from "lucide-react";
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { tabsContentClass, tabsListClass, tabsTriggerClass } from "@/components/ui/tabs-styles";
import { CredentialsForm, type CredentialsMode, type Notify } from "@/features/auth/credentials-form";
import { cn } from "@/lib/utils";

const TABS: ReadonlyArray<{ value: CredentialsMode; label: string }> = [
  { value: "login", label: "Login" },
  { value: "register", label: "Register" },
];

function parseTab(value: string | null): CredentialsMode {
  return value === "register" ? "register" : "login";
}

export type AuthTabsProps = {
  /** The page's query string (`?tab=…&invite=…&email=…`). */
  search: string;
  /** Replaces the query string in the address bar (no new history entry). */
  replaceSearch: (search: string) => void;
  notify: Notify;
  onSignedIn: (session: SessionResponse) => void;
};

/**
 * SPEC §2 Auth: `?tab=login|register` picks the tab (default login). Switching replaces the URL
 * (keeping other parameters, e.g. an invitation's) and starts the other form fresh. It needs no
 * router: the sign-in page runs on its own (auth-main.tsx) and inside the app. Its two tabs follow
 * the WAI-ARIA tabs pattern as the app's Radix tabs do (arrow keys, Home, End, selection follows
 * focus), with their look; Radix itself would be a tenth of what this page loads.
 */
export function AuthTabs({ search, replaceSearch, notify, onSignedIn }: AuthTabsProps) {
  const searchParams = new URLSearchParams(search);
  const tab = parseTab(searchParams.get("tab"));
  // A team invitation's link: /auth?tab=register&invite=<token>&email=<address>.
  const inviteToken = searchParams.get("invite") ?? undefined;
  const invitedEmail = searchParams.get("email") ?? "";
  const [registered, setRegistered] = useState<string | null>(null);

  const selectTab = (value: string) => {
    setRegistered(null);
    const params = new URLSearchParams(search);
    params.set("tab", parseTab(value));
    replaceSearch(`?${params}`);
  };

  const id = useId();
  const tabs = useRef(new Map<CredentialsMode, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent) => {
    const at = TABS.findIndex((item) => item.value === tab);
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = TABS[(next + TABS.length) % TABS.length];
    if (!target) return;
    tabs.current.get(target.value)?.focus();
    if (target.value !== tab) selectTab(target.value);
  };

  const shared = { notify, defaultEmail: invitedEmail, inviteToken };
  return (
    <div className="flex flex-col gap-4">
      <div
        role="tablist"
        aria-orientation="horizontal"
        className={cn(tabsListClass, "grid w-full grid-cols-2")}
      >
        {TABS.map((item) => {
          const selected = item.value === tab;
          return (
            <button
              key={item.value}
              ref={(button) => {
                if (button) tabs.current.set(item.value, button);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${item.value}`}
              aria-selected={selected}
              aria-controls={`${id}-panel`}
              data-state={selected ? "active" : "inactive"}
              tabIndex={selected ? 0 : -1}
              className={tabsTriggerClass}
              onClick={() => selectTab(item.value)}
              onKeyDown={onKeyDown}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${tab}`}
        className={tabsContentClass}
      >
        {tab === "login" ? (
          <CredentialsForm key="login" mode="login" onSignedIn={onSignedIn} {...shared} />
        ) : registered ? (
          <div role="status" className="flex flex-col items-center gap-3 py-4 text-center">
            <MailCheck className="size-10 text-success" aria-hidden="true" />
            <p>{registered}</p>
            {registered === AUTH_MESSAGES.registeredInvited ? (
              <Button onClick={() => selectTab("login")}>Sign in</Button>
            ) : null}
          </div>
        ) : (
          <CredentialsForm key="register" mode="register" onRegistered={setRegistered} {...shared} />
        )}
      </div>
    </div>
  );
}

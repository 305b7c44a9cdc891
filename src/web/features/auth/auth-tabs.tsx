import { AUTH_MESSAGES } from "@shared/auth";
import { MailCheck } from "lucide-react";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { CredentialsForm, type CredentialsMode } from "@/features/auth/credentials-form";

function parseTab(value: string | null): CredentialsMode {
  return value === "register" ? "register" : "login";
}

/**
 * SPEC §2 Auth: `?tab=login|register` picks the tab (default login). Switching replaces the URL
 * (keeping other parameters, e.g. an invitation's) and, as Radix unmounts the hidden tab, starts
 * the other form fresh.
 */
export function AuthTabs() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = parseTab(searchParams.get("tab"));
  // A team invitation's link: /auth?tab=register&invite=<token>&email=<address>.
  const inviteToken = searchParams.get("invite") ?? undefined;
  const invitedEmail = searchParams.get("email") ?? "";
  const [registered, setRegistered] = useState<string | null>(null);

  const selectTab = (value: string) => {
    setRegistered(null);
    setSearchParams(
      (params) => {
        params.set("tab", parseTab(value));
        return params;
      },
      { replace: true },
    );
  };

  return (
    <Tabs value={tab} onValueChange={selectTab} className="gap-4">
      <TabsList className="grid w-full grid-cols-2">
        <TabsTrigger value="login">Login</TabsTrigger>
        <TabsTrigger value="register">Register</TabsTrigger>
      </TabsList>
      <TabsContent value="login">
        <CredentialsForm mode="login" defaultEmail={invitedEmail} inviteToken={inviteToken} />
      </TabsContent>
      <TabsContent value="register">
        {registered ? (
          <div role="status" className="flex flex-col items-center gap-3 py-4 text-center">
            <MailCheck className="size-10 text-success" aria-hidden="true" />
            <p>{registered}</p>
            {registered === AUTH_MESSAGES.registeredInvited ? (
              <Button onClick={() => selectTab("login")}>Sign in</Button>
            ) : null}
          </div>
        ) : (
          <CredentialsForm
            mode="register"
            defaultEmail={invitedEmail}
            inviteToken={inviteToken}
            onRegistered={setRegistered}
          />
        )}
      </TabsContent>
    </Tabs>
  );
}

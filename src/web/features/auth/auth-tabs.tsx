import { AUTH_MESSAGES } from "@shared/auth";
import { MailCheck } from "lucide-react";
import { useState } from "react";
import { useSearchParams } from "react-router";
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
  const [registered, setRegistered] = useState(false);

  const selectTab = (value: string) => {
    setRegistered(false);
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
        <CredentialsForm mode="login" />
      </TabsContent>
      <TabsContent value="register">
        {registered ? (
          <div role="status" className="flex flex-col items-center gap-3 py-4 text-center">
            <MailCheck className="size-10 text-success" aria-hidden="true" />
            <p>{AUTH_MESSAGES.registered}</p>
          </div>
        ) : (
          <CredentialsForm mode="register" onRegistered={() => setRegistered(true)} />
        )}
      </TabsContent>
    </Tabs>
  );
}

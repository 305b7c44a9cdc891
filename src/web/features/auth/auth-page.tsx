import { AuthLayout } from "@/components/layout/auth-layout";
import { AuthTabs, type AuthTabsProps } from "@/features/auth/auth-tabs";

export const AUTH_PAGE_TITLE = "Welcome to Buddy";
export const AUTH_PAGE_DESCRIPTION = "Enter your email to sign in to your account";

/** SPEC §2 Auth: the sign-in page, alone (auth-main.tsx) or as the app's /auth route. */
export function AuthPage(props: AuthTabsProps) {
  return (
    <AuthLayout title={AUTH_PAGE_TITLE} description={AUTH_PAGE_DESCRIPTION}>
      <AuthTabs {...props} />
    </AuthLayout>
  );
}

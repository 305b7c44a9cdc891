import { AuthLayout } from "@/components/layout/auth-layout";
import { AuthTabs, type AuthTabsProps } from "@/features/auth/auth-tabs";

/** SPEC §2 Auth: the sign-in page, alone (auth-main.tsx) or as the app's /auth route. */
export function AuthPage(props: AuthTabsProps) {
  return (
    <AuthLayout title="Welcome to Buddy" description="Enter your email to sign in to your account">
      <AuthTabs {...props} />
    </AuthLayout>
  );
}

import { AuthLayout } from "@/components/layout/auth-layout";
import { AuthTabs } from "@/features/auth/auth-tabs";

export function AuthRoute() {
  return (
    <AuthLayout title="Welcome to Buddy" description="Enter your email to sign in to your account">
      <AuthTabs />
    </AuthLayout>
  );
}

import { AuthLayout } from "@/components/layout/auth-layout";
import { VerifyEmailStatus } from "@/features/auth/verify-email-status";

export function VerifyEmailRoute() {
  return (
    <AuthLayout title="Email Verification">
      <VerifyEmailStatus />
    </AuthLayout>
  );
}

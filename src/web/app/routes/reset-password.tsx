import { AuthLayout } from "@/components/layout/auth-layout";
import { ResetPasswordForm } from "@/features/auth/reset-password-form";

export function ResetPasswordRoute() {
  return (
    <AuthLayout title="Choose a new password" description="Enter and confirm your new password.">
      <ResetPasswordForm />
    </AuthLayout>
  );
}

import { AuthLayout } from "@/components/layout/auth-layout";
import { SetupPlaceholder } from "@/features/onboarding/setup-placeholder";

export function SetupRoute() {
  return (
    <AuthLayout title="Set up your company">
      <SetupPlaceholder />
    </AuthLayout>
  );
}

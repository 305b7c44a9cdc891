import { SetupPage } from "@/features/onboarding/setup-page";

export function SetupRoute() {
  return <SetupPage />;
}

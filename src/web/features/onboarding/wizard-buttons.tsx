import { ArrowLeft } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { SetupLogoutButton } from "@/features/onboarding/setup-logout-button";

type WizardButtonsProps = {
  step: number;
  lastStep: number;
  busy: boolean;
  onPrevious: () => void;
};

/** SPEC §2: Previous, Continue or 'Complete Setup' (busy: 'Setting up your account'), and Logout. */
export function WizardButtons({ step, lastStep, busy, onPrevious }: WizardButtonsProps) {
  return (
    <div className="flex flex-col-reverse gap-3 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
      <SetupLogoutButton />
      <div className="flex gap-2 sm:justify-end">
        {step > 1 ? (
          <Button type="button" variant="outline" onClick={onPrevious} className="flex-1 sm:flex-none">
            <ArrowLeft />
            Previous
          </Button>
        ) : null}
        <Button type="submit" aria-busy={busy} className="flex-1 sm:flex-none">
          {busy ? <Spinner /> : null}
          {step < lastStep ? "Continue" : busy ? "Setting up your account" : "Complete Setup"}
        </Button>
      </div>
    </div>
  );
}

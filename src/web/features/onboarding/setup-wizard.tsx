import { zodResolver } from "@hookform/resolvers/zod";
import {
  COMPANY_NAME_MAX,
  type CompanyStepInput,
  companyStepSchema,
  cutCompanyName,
  DESCRIPTION_MAX,
  ONBOARDING_STEPS,
} from "@shared/onboarding";
import { isValidDomain, normalizeWebsite } from "@shared/website";
import { type FormEvent, useState } from "react";
import { useForm } from "react-hook-form";
import { AuthLayout } from "@/components/layout/auth-layout";
import { Progress } from "@/components/ui/progress";
import {
  lookupSiteMetadata,
  useCompleteOnboarding,
  useOnboardingSuggestions,
} from "@/features/onboarding/api";
import { EMPTY_COMPANY, withHttps } from "@/features/onboarding/company-form";
import { CompanyStep } from "@/features/onboarding/company-step";
import { CompetitorsStep } from "@/features/onboarding/competitors-step";
import { ComplementsStep } from "@/features/onboarding/complements-step";
import { useWebsitePrefill } from "@/features/onboarding/website-prefill";
import { WizardButtons } from "@/features/onboarding/wizard-buttons";

type WizardStep = 1 | 2 | 3;

/** SPEC §2 step titles, in order. */
const STEP_TITLES: Record<WizardStep, string> = {
  1: "Tell us about your company",
  2: "Who are your competitors? We'll block them from your ads",
  3: "Select complementary tools to be your Buddies",
};

function toggled(names: readonly string[], name: string): string[] {
  return names.includes(name) ? names.filter((item) => item !== name) : [...names, name];
}

/** SPEC §2/§4 onboarding: company → competitors → complementary tools, then one POST. */
export function SetupWizard() {
  const [step, setStep] = useState<WizardStep>(1);
  // Step 1's validated values, website with https:// (SPEC §4); steps 2 and 3 suggest for them.
  const [company, setCompany] = useState<CompanyStepInput | null>(null);
  const [competitors, setCompetitors] = useState<string[]>([]);
  const [complements, setComplements] = useState<string[]>([]);
  const form = useForm<CompanyStepInput>({
    resolver: zodResolver(companyStepSchema),
    defaultValues: EMPTY_COMPANY,
  });
  const suggestions = useOnboardingSuggestions(company);
  const complete = useCompleteOnboarding();
  const loadingSuggestions = suggestions.isLoading;

  /** SPEC §5 autofill: only empty fields are filled, the name cut to 25 characters. */
  const autofill = async (website: string) => {
    if (!isValidDomain(normalizeWebsite(website))) return;
    // The server normalises the host itself; a port is kept only where it may matter (local
    // fixture sites in tests), so send the host as typed.
    const host =
      website
        .trim()
        .replace(/^https?:\/\//i, "")
        .split(/[/?#]/, 1)[0] ?? "";
    const metadata = await lookupSiteMetadata(host);
    if (!metadata) return;
    const revalidate = { shouldValidate: form.formState.isSubmitted };
    if (!form.getValues("companyName")?.trim() && metadata.siteName.trim()) {
      form.setValue("companyName", cutCompanyName(metadata.siteName, COMPANY_NAME_MAX), revalidate);
    }
    if (!form.getValues("description")?.trim() && metadata.description.trim()) {
      form.setValue("description", metadata.description.trim().slice(0, DESCRIPTION_MAX), revalidate);
    }
  };

  useWebsitePrefill(form, autofill);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    if (step === 1) {
      return form.handleSubmit((values) => {
        setCompany({ ...values, website: withHttps(values.website) });
        setStep(2);
      })(event);
    }
    event.preventDefault();
    if (step === 2) {
      setStep(3);
      return;
    }
    if (!company) return;
    complete.mutate({
      ...company,
      selectedCompetitors: competitors,
      selectedComplements: complements,
      suggestions: suggestions.data,
    });
  };

  return (
    <AuthLayout title={STEP_TITLES[step]} className="max-w-2xl">
      <div className="grid gap-6">
        <div className="grid gap-2">
          <Progress
            value={step}
            max={ONBOARDING_STEPS}
            aria-label={`Step ${step} of ${ONBOARDING_STEPS}`}
            data-testid="setup-progress"
          />
          <p className="text-center text-muted-foreground text-xs">
            Step {step} of {ONBOARDING_STEPS}
          </p>
        </div>
        <form noValidate aria-label="Company setup" data-testid={`setup-step-${step}`} onSubmit={submit}>
          <fieldset disabled={complete.isPending} className="grid gap-6">
            {step === 1 ? <CompanyStep control={form.control} onWebsiteLeave={autofill} /> : null}
            {step === 2 ? (
              <CompetitorsStep
                loading={loadingSuggestions}
                suggestions={suggestions.data}
                selected={competitors}
                onToggle={(name) => setCompetitors((names) => toggled(names, name))}
              />
            ) : null}
            {step === 3 ? (
              <ComplementsStep
                loading={loadingSuggestions}
                suggestions={suggestions.data}
                selected={complements}
                onToggle={(name) => setComplements((names) => toggled(names, name))}
              />
            ) : null}
            <WizardButtons
              step={step}
              lastStep={ONBOARDING_STEPS}
              busy={complete.isPending}
              onPrevious={() => setStep((current) => (current > 1 ? ((current - 1) as WizardStep) : current))}
            />
          </fieldset>
        </form>
      </div>
    </AuthLayout>
  );
}

import {
  COMPANY_NAME_MAX,
  type CompanyStepInput,
  MARKETING_PROVIDERS,
  TRANSACTIONAL_PROVIDERS,
} from "@shared/onboarding";
import type { Control } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { FormTextarea } from "@/components/ui/form-textarea";
import { ProviderSelectField } from "@/features/onboarding/provider-select-field";
import { WebsiteField } from "@/features/onboarding/website-field";

type CompanyStepProps = {
  control: Control<CompanyStepInput>;
  onWebsiteLeave: (website: string) => void;
};

/** Step 1 'Tell us about your company'. */
export function CompanyStep({ control, onWebsiteLeave }: CompanyStepProps) {
  return (
    <div className="grid gap-4">
      <WebsiteField control={control} onLeave={onWebsiteLeave} />
      <FormField
        control={control}
        name="companyName"
        label="Company Name"
        autoComplete="organization"
        maxLength={COMPANY_NAME_MAX}
      />
      <FormTextarea
        control={control}
        name="description"
        label="Description"
        rows={3}
        placeholder="What does your company do?"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <ProviderSelectField
          control={control}
          name="transactionalEmailProvider"
          label="Transactional Email Provider"
          providers={TRANSACTIONAL_PROVIDERS}
        />
        <ProviderSelectField
          control={control}
          name="marketingEmailProvider"
          label="Marketing Email Provider"
          providers={MARKETING_PROVIDERS}
        />
      </div>
    </div>
  );
}

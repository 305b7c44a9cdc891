import type { CompanyStepInput } from "@shared/onboarding";
import { useEffect, useRef } from "react";
import type { UseFormReturn } from "react-hook-form";
import { useWebsiteSuggestion } from "@/features/onboarding/api";

/**
 * Step 1's website starts as the work address's domain (free mail suggests nothing), then goes
 * through the same autofill as a website the user typed. It only fills a field nobody touched:
 * whatever the user typed, or typed and cleared, stays theirs. Once per wizard.
 */
export function useWebsitePrefill(
  form: UseFormReturn<CompanyStepInput>,
  autofill: (website: string) => unknown,
) {
  const website = useWebsiteSuggestion().data?.website;
  const filled = useRef(false);
  useEffect(() => {
    if (!website || filled.current) return;
    filled.current = true;
    const field = form.getFieldState("website");
    if (form.getValues("website") || field.isDirty || field.isTouched) return;
    form.setValue("website", website);
    void autofill(website);
  }, [website, form, autofill]);
}

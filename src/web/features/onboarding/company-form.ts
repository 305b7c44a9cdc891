import type { CompanyStepInput } from "@shared/onboarding";
import type { DefaultValues } from "react-hook-form";

/** Providers start unset: the shared schema then reports them as required. */
export const EMPTY_COMPANY: DefaultValues<CompanyStepInput> = {
  website: "",
  companyName: "",
  description: "",
};

/** SPEC §4: step 1 stores the website with an https:// prefix if it has none. */
export function withHttps(website: string): string {
  return /^https?:\/\//i.test(website) ? website : `https://${website}`;
}

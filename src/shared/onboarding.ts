import { z } from "zod";
import { jsonValue, text } from "./text";
import { isValidDomain, normalizeWebsite } from "./website";

/** SPEC §3 provider options. */
export const TRANSACTIONAL_PROVIDERS = ["sendgrid", "postmark", "mailgun", "ses", "resend", "other"] as const;
export const MARKETING_PROVIDERS = [
  "mailchimp",
  "klaviyo",
  "customerio",
  "drip",
  "hubspot",
  "other",
] as const;

export const PROVIDER_LABELS: Record<string, string> = {
  sendgrid: "SendGrid",
  postmark: "Postmark",
  mailgun: "Mailgun",
  ses: "Amazon SES",
  resend: "Resend",
  mailchimp: "Mailchimp",
  klaviyo: "Klaviyo",
  customerio: "Customer.io",
  drip: "Drip",
  hubspot: "HubSpot",
  other: "Other",
};

export const COMPANY_NAME_MAX = 25;
export const DESCRIPTION_MIN = 10;
export const DESCRIPTION_MAX = 1000;
export const ONBOARDING_STEPS = 3;

/** SPEC §5: a site name longer than 25 characters is cut to 25 and the last partial word dropped. */
export function cutCompanyName(siteName: string, max = COMPANY_NAME_MAX): string {
  const name = siteName.replace(/\s+/g, " ").trim();
  if (name.length <= max) return name;
  // Never split a surrogate pair (an emoji) in half.
  const cut = name.slice(0, max).replace(/[\uD800-\uDBFF]$/, "");
  // The cut ends exactly at a word boundary: nothing partial to drop.
  if (name[max] === " ") return cut.trimEnd();
  const lastSpace = cut.lastIndexOf(" ");
  return lastSpace > 0 ? cut.slice(0, lastSpace).trimEnd() : cut;
}

/** SPEC §5 website rule: normalised, must contain a dot and no space. */
export const websiteSchema = text("Website", { error: "Website is required" })
  .min(1, { error: "Website is required" })
  .max(253, { error: "Must be a valid domain" })
  .refine((value) => isValidDomain(normalizeWebsite(value)), { error: "Must be a valid domain" });

export const companyStepSchema = z.object({
  companyName: text("Company name", { error: "Company name is required" })
    .min(1, { error: "Company name is required" })
    .max(COMPANY_NAME_MAX, { error: `Company name must be at most ${COMPANY_NAME_MAX} characters` }),
  website: websiteSchema,
  description: text("Description", { error: "Please provide a brief description", multiline: true })
    .min(DESCRIPTION_MIN, { error: "Please provide a brief description" })
    .max(DESCRIPTION_MAX, { error: `Description must be at most ${DESCRIPTION_MAX} characters` }),
  transactionalEmailProvider: z.enum(TRANSACTIONAL_PROVIDERS, {
    error: "Transactional email provider is required",
  }),
  marketingEmailProvider: z.enum(MARKETING_PROVIDERS, { error: "Marketing email provider is required" }),
});
export type CompanyStepInput = z.infer<typeof companyStepSchema>;

const selectedNames = z
  .array(text("Selected name").min(1).max(200))
  .max(100, { error: "Too many selections" });

/** SPEC §3 onboarding payload. `suggestions` is accepted but the server re-derives names itself. */
export const onboardingSchema = companyStepSchema.extend({
  selectedCompetitors: selectedNames.default([]),
  selectedComplements: selectedNames.default([]),
  suggestions: jsonValue("suggestions").optional(),
});
export type OnboardingInput = z.infer<typeof onboardingSchema>;

/**
 * `GET /api/onboarding/website`: the domain of the signed-in user's work address, to prefill step 1's
 * website; null for free mail (gmail.com names no company) or a domain nobody can own.
 */
export const websiteSuggestionSchema = z.object({ website: z.string().nullable() });
export type WebsiteSuggestion = z.infer<typeof websiteSuggestionSchema>;

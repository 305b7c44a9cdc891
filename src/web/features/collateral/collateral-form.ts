import type {
  Collateral,
  CreateCollateralInput,
  createCollateralSchema,
  GeneratedCollateral,
} from "@shared/collateral";
import type { Control } from "react-hook-form";
import type { z } from "zod";

/** What the dialog's inputs hold, and what the shared schema turns them into for the API. */
export type CollateralFormValues = CreateCollateralInput;
export type CollateralFormOutput = z.output<typeof createCollateralSchema>;
export type CollateralFormControl = Control<CollateralFormValues, unknown, CollateralFormOutput>;

/** SPEC §3: new collateral starts as an email call to action, in draft. */
export const EMPTY_COLLATERAL: CollateralFormValues = {
  type: "email_cta",
  name: "",
  description: "",
  ctaText: "",
  ctaUrl: "",
  imageUrl: "",
  status: "draft",
};

export function collateralFormValues(collateral: Collateral | null): CollateralFormValues {
  if (!collateral) return EMPTY_COLLATERAL;
  const { type, name, description, ctaText, ctaUrl, imageUrl, status } = collateral;
  return { type, name, description, ctaText, ctaUrl, imageUrl: imageUrl ?? "", status };
}

/**
 * 'Generate with AI' replaces the ad's content; the status stays what the user chose (a new item
 * stays a draft until published).
 */
export function withGeneratedContent(
  current: CollateralFormValues,
  generated: GeneratedCollateral,
): CollateralFormValues {
  const { type, name, description, ctaText, ctaUrl, imageUrl } = generated;
  return { ...current, type, name, description, ctaText, ctaUrl, imageUrl: imageUrl ?? "" };
}

import {
  COLLATERAL_CTA_TEXT_MAX,
  COLLATERAL_DESCRIPTION_MAX,
  COLLATERAL_TITLE_MAX,
  cutDescription,
} from "@shared/collateral";
import { cutCompanyName } from "@shared/onboarding";
import { z } from "zod";
import type { AiClient } from "../../lib/ai-client";
import type { CollateralWriter } from "./collateral-generator";

const answerSchema = z.object({
  name: z.string().trim().min(1),
  description: z.string().trim().min(1),
  ctaText: z.string().trim().min(1),
});

const SYSTEM = [
  "You write short e-mail call-to-action ads that one software company shows its customers to recommend a partner.",
  `Answer only with a JSON object {"name", "description", "ctaText"}: name at most ${COLLATERAL_TITLE_MAX} characters,`,
  `description at most ${COLLATERAL_DESCRIPTION_MAX} characters, ctaText at most ${COLLATERAL_CTA_TEXT_MAX} characters.`,
  "Be factual, use only the facts given, mention no other company, no URLs.",
].join(" ");

/**
 * Rewrites the built-in draft's copy with the model. URLs and the image stay the draft's (a
 * model never chooses where a link goes), and the answer is cut to the SPEC §5 limits. Any
 * failure falls back to the draft, so 'Generate' always gives something usable.
 */
export function createAiCollateralWriter(
  ai: AiClient,
  log: { warn(obj: object, msg: string): void },
): CollateralWriter {
  return async ({ target, sharer, draft }) => {
    const facts = {
      partner: target.name,
      partnerWebsite: target.website,
      partnerDescription: draft.description || target.description || "",
      recommendedBy: sharer.name,
    };
    try {
      const answer = answerSchema.parse(await ai.completeJson(SYSTEM, JSON.stringify(facts)));
      const ctaText = answer.ctaText.length <= COLLATERAL_CTA_TEXT_MAX ? answer.ctaText : draft.ctaText;
      return {
        ...draft,
        name: cutCompanyName(answer.name, COLLATERAL_TITLE_MAX) || draft.name,
        description: cutDescription(answer.description) || draft.description,
        ctaText,
      };
    } catch (error) {
      log.warn(
        { err: (error as Error).message },
        "AI collateral generation failed; using the built-in draft",
      );
      return draft;
    }
  };
}

import { z } from "zod";

/**
 * CONTRACT §4: the ways a user proves control of an organization's domain. The web shows the
 * same names and records the server looks for, from this one place.
 */
export const DOMAIN_PROOF_METHODS = ["email", "meta_tag", "dns_txt"] as const;
export type DomainProofMethod = (typeof DOMAIN_PROOF_METHODS)[number];

export const SITE_VERIFICATION_NAME = "buddy-site-verification";

export const siteVerificationMetaTag = (token: string) =>
  `<meta name="${SITE_VERIFICATION_NAME}" content="${token}">`;

export const siteVerificationTxtRecord = (token: string) => `${SITE_VERIFICATION_NAME}=${token}`;

/** What a user needs to prove a domain: shown on the verification screen. */
export const domainChallengeSchema = z.object({
  domain: z.string(),
  token: z.string(),
});
export type DomainChallenge = z.infer<typeof domainChallengeSchema>;

export const DOMAIN_MESSAGES = {
  claimOpened: (domain: string) => `Verify that you control ${domain} to finish setting up Buddy.`,
  notFound: (domain: string) =>
    `We could not find the meta tag on https://${domain}/ or the TXT record on ${domain} yet. Changes can take a few minutes to appear; check again once they are published.`,
  verified: (domain: string) => `${domain} is verified`,
  needed: (domain: string) => `Verify that you control ${domain} first`,
  publishNeedsProof: (domain: string) => `Verify that you control ${domain} before publishing ads`,
} as const;

/** Settings → organization: the admin's view of their organization's domain proof. */
export const organizationDomainStatusSchema = domainChallengeSchema.extend({
  verified: z.boolean(),
  method: z.enum(DOMAIN_PROOF_METHODS).nullable(),
  message: z.string().optional(),
});
export type OrganizationDomainStatus = z.infer<typeof organizationDomainStatusSchema>;

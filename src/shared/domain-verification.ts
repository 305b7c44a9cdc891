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
  alreadyOnBuddy: (domain: string) =>
    `${domain} is already on Buddy as another organization, so your organization cannot move to it.`,
  // What stood in the way of the meta tag, shown on the verification screen after a check.
  redirectsAway: (url: string, host: string, domain: string) =>
    `${url} redirects to ${host}: the tag must be on ${domain}'s own site. Publish it on a page ${domain} serves itself, or use the TXT record.`,
  redirectsToHttp: (url: string, target: string) =>
    `${url} redirects to ${target}, which is not https: serve the page with the tag over https, or use the TXT record.`,
  certificateError: (host: string, detail: string) =>
    `https://${host}/ has a certificate error (${detail}): fix it, or use the TXT record.`,
  siteNotHtml: (url: string) =>
    `${url} is not an HTML page: the tag must be in the <head> of a page served as text/html.`,
  siteStatus: (url: string, status: number) =>
    `${url} answers with HTTP status ${status}: the tag must be on a home page that loads.`,
  tagOutsideHead: (url: string) =>
    `Your tag on ${url} is outside the <head>: move it between <head> and </head>.`,
  siteBrokeOff: (url: string) =>
    `${url} broke off its answer. Check again in a moment, or use the TXT record.`,
  siteTooSlow: (url: string) =>
    `${url} took too long to answer. Check again in a moment, or use the TXT record.`,
  tooManyRedirects: (url: string) =>
    `${url} redirects more than 3 times: put the tag on a page it reaches sooner, or use the TXT record.`,
  siteNotPublic: (url: string) =>
    `${url} leads to an address that is not on the public internet, so we cannot check it. Use the TXT record.`,
} as const;

/** Settings → organization: the admin's view of their organization's domain proof. */
export const organizationDomainStatusSchema = domainChallengeSchema.extend({
  verified: z.boolean(),
  method: z.enum(DOMAIN_PROOF_METHODS).nullable(),
  message: z.string().optional(),
});
export type OrganizationDomainStatus = z.infer<typeof organizationDomainStatusSchema>;

import { createRequire } from "node:module";
import { parse } from "tldts";
import { isOwnableDomain } from "./ownable-domain";

/**
 * Companies' own domains that the `email-providers` list counts as free mail. Each was checked by
 * hand: a real company hands these mailboxes only to its staff, so they prove the domain like any
 * other company's. Free-mail services run by software companies (zoho.com, yandex.com, hey.com)
 * stay refused: anyone can open a mailbox there.
 */
export const COMPANY_DOMAINS_LISTED_AS_FREE_MAIL: ReadonlySet<string> = new Set([
  // Shipping API.
  "easypost.com",
  // Authentication for developers.
  "clerk.com",
  // One-click checkout for merchants (the name once belonged to a social network with free mail).
  "bolt.com",
]);

// Loaded with require: the server bundle keeps packages external and drops JSON import attributes.
const FREE_MAIL = new Set<string>(
  (createRequire(import.meta.url)("email-providers/all.json") as string[]).filter(
    (domain) => !COMPANY_DOMAINS_LISTED_AS_FREE_MAIL.has(domain),
  ),
);

/**
 * Proof (a), CONTRACT §4: a verified address proves exactly the domain its mailbox is on, because
 * only that domain's owner decides who gets a mailbox there. A mailbox on a subdomain proves no
 * parent: helpdesk and automation vendors give every trial user one under their own domain
 * (`acme@x.zendesk.com`, `x@robot.zapier.com`), so `ceo@eu.acme.com` proves eu.acme.com only.
 * Addresses at free-mail providers (about 8,700 from the `email-providers` package) never prove
 * anything: anyone can open one, so `someone@gmail.com` is no proof of owning gmail.com.
 * The caller passes only addresses it has verified.
 */
export function emailProvesDomain(verifiedEmail: string, domain: string): boolean {
  const host = verifiedEmail
    .slice(verifiedEmail.lastIndexOf("@") + 1)
    .trim()
    .toLowerCase();
  if (!isOwnableDomain(domain)) return false;
  const mailbox = parse(host, { allowPrivateDomains: true });
  const claimed = parse(domain, { allowPrivateDomains: true });
  if (mailbox.domain === null || mailbox.domain !== claimed.domain || mailbox.hostname !== domain)
    return false;
  return !FREE_MAIL.has(host) && !FREE_MAIL.has(mailbox.domain);
}

/**
 * The domain a work address suggests as its company's website (onboarding's step 1): the mailbox's
 * own host, exactly what the address proves once verified, so a user who keeps it is set up
 * without a further proof. Null for free mail and hosts nobody can own (`someone@gmail.com`,
 * `x@co.uk`).
 */
export function workMailboxDomain(email: string): string | null {
  const host = email
    .slice(email.lastIndexOf("@") + 1)
    .trim()
    .toLowerCase();
  return host && emailProvesDomain(email, host) ? host : null;
}

import { createRequire } from "node:module";
import { parse } from "tldts";
import { isOwnableDomain, isSameOrSubdomain } from "./ownable-domain";

// Loaded with require: the server bundle keeps packages external and drops JSON import attributes.
const FREE_MAIL = new Set<string>(createRequire(import.meta.url)("email-providers/all.json") as string[]);

/**
 * Proof (a), CONTRACT §4: a verified address at the domain or one of its subdomains proves
 * control of it, because only the domain's owner decides who gets a mailbox there. Addresses at
 * free-mail providers (a list of about 8,700 from the `email-providers` package) never prove
 * anything: anyone can open one, so `someone@gmail.com` is no proof of owning gmail.com.
 * The caller passes only addresses it has verified.
 */
export function emailProvesDomain(verifiedEmail: string, domain: string): boolean {
  const host = verifiedEmail
    .slice(verifiedEmail.lastIndexOf("@") + 1)
    .trim()
    .toLowerCase();
  const registrable = parse(host, { allowPrivateDomains: true }).domain;
  if (FREE_MAIL.has(host) || (registrable !== null && FREE_MAIL.has(registrable))) return false;
  return isOwnableDomain(domain) && isSameOrSubdomain(host, domain);
}

import type { DomainProofMethod } from "@shared/domain-verification";
import { safeFetch } from "../../lib/safe-fetch";
import { emailProvesDomain } from "./email-proof";
import { isOwnableDomain } from "./ownable-domain";
import { checkSiteTag, type PageFetch } from "./site-tag-proof";
import { systemTxtResolver, type TxtResolver, txtRecordProvesDomain } from "./txt-record-proof";

export type DomainProofRequest = {
  domain: string;
  /** The claimant's own token: one per claim or per organization, never shared between rivals. */
  token: string;
  /** The acting user's address, only once it is verified. */
  verifiedEmail: string | null;
};

/**
 * What a check found: the first way that proves control of the domain, or none, with what stood
 * in the way when something specific did (a redirect to another host, a certificate error…);
 * `problem` null means simply that nothing was published yet.
 */
export type DomainProofOutcome =
  | { method: DomainProofMethod; problem: null }
  | { method: null; problem: string | null };

export type DomainProver = {
  prove(request: DomainProofRequest): Promise<DomainProofOutcome>;
};

export type DomainProverOptions = {
  /** OUTBOUND_ALLOW_PRIVATE (CONTRACT §1): fixture sites in tests. */
  allowPrivate: boolean;
  /** Default: the SSRF-safe client. */
  fetchPage?: PageFetch;
  /** Default: the system's DNS servers. */
  resolver?: TxtResolver;
  timeoutMs?: number;
};

/** The three proofs of CONTRACT §4 behind one call: the address first (no I/O), then DNS and the page. */
export function createDomainProver(options: DomainProverOptions): DomainProver {
  const fetchPage = options.fetchPage ?? safeFetch;
  const resolver = options.resolver ?? systemTxtResolver();
  return {
    async prove({ domain, token, verifiedEmail }) {
      if (!isOwnableDomain(domain)) return { method: null, problem: null };
      if (verifiedEmail && emailProvesDomain(verifiedEmail, domain))
        return { method: "email", problem: null };
      const [txt, tag] = await Promise.all([
        txtRecordProvesDomain(domain, token, resolver),
        checkSiteTag(domain, token, fetchPage, {
          allowPrivate: options.allowPrivate,
          timeoutMs: options.timeoutMs,
        }),
      ]);
      if (txt) return { method: "dns_txt", problem: null };
      if (tag.proven) return { method: "meta_tag", problem: null };
      // The TXT record has nothing to explain: it is there or not.
      return { method: null, problem: tag.problem };
    },
  };
}

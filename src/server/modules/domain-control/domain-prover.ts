import type { DomainProofMethod } from "@shared/domain-verification";
import { safeFetch } from "../../lib/safe-fetch";
import { emailProvesDomain } from "./email-proof";
import { isOwnableDomain } from "./ownable-domain";
import { type PageFetch, siteTagProvesDomain } from "./site-tag-proof";
import { systemTxtResolver, type TxtResolver, txtRecordProvesDomain } from "./txt-record-proof";

export type DomainProofRequest = {
  domain: string;
  /** The claimant's own token: one per claim or per organization, never shared between rivals. */
  token: string;
  /** The acting user's address, only once it is verified. */
  verifiedEmail: string | null;
};

export type DomainProver = {
  /** The first way that proves control of the domain for this token and address, or null. */
  prove(request: DomainProofRequest): Promise<DomainProofMethod | null>;
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
      if (!isOwnableDomain(domain)) return null;
      if (verifiedEmail && emailProvesDomain(verifiedEmail, domain)) return "email";
      const [txt, tag] = await Promise.all([
        txtRecordProvesDomain(domain, token, resolver),
        siteTagProvesDomain(domain, token, fetchPage, {
          allowPrivate: options.allowPrivate,
          timeoutMs: options.timeoutMs,
        }),
      ]);
      if (txt) return "dns_txt";
      if (tag) return "meta_tag";
      return null;
    },
  };
}

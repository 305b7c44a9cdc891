import type { DomainProofMethod } from "@shared/domain-verification";
import type { DbOrTx } from "../../db/client";
import { recordSecurityEvent, type SecurityActor } from "../security-log/security-log.service";

const METHOD_WORDS: Record<DomainProofMethod, string> = {
  email: "e-mail address",
  meta_tag: "meta tag",
  dns_txt: "DNS TXT record",
};

/**
 * CONTRACT §3: an organization's domain became proven (onboarding, Settings' "Check again", a
 * website change the admin's address proves), in its security log as `acme.com (meta tag)`.
 * Called in the transaction that records the proof, once it changed a row.
 */
export function recordDomainProof(
  tx: DbOrTx,
  actor: SecurityActor,
  organizationId: string,
  proof: { domain: string; method: DomainProofMethod },
) {
  return recordSecurityEvent(tx, actor, {
    action: "domain_proved",
    organizationId,
    target: `${proof.domain} (${METHOD_WORDS[proof.method]})`,
  });
}

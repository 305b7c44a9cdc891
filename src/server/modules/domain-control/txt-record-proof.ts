import { Resolver } from "node:dns/promises";
import { siteVerificationTxtRecord } from "@shared/domain-verification";

/** The part of `dns.promises.Resolver` proof (c) uses; tests point a real one at a local server. */
export type TxtResolver = { resolveTxt(hostname: string): Promise<string[][]> };

export function systemTxtResolver(): TxtResolver {
  return new Resolver({ timeout: 3_000, tries: 2 });
}

/**
 * Proof (c), CONTRACT §4: a TXT record `buddy-site-verification=TOKEN` on the domain itself.
 * Long TXT values arrive split into 255-byte strings, which are joined first. No answer, no
 * domain or a failed lookup is simply no proof.
 */
export async function txtRecordProvesDomain(
  domain: string,
  token: string,
  resolver: TxtResolver,
): Promise<boolean> {
  const expected = siteVerificationTxtRecord(token);
  try {
    const records = await resolver.resolveTxt(domain);
    return records.some((chunks) => chunks.join("").trim() === expected);
  } catch {
    return false;
  }
}

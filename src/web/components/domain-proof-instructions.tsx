import {
  type DomainChallenge,
  siteVerificationMetaTag,
  siteVerificationTxtRecord,
} from "@shared/domain-verification";
import { CodeBlock } from "@/components/code-block";

/**
 * CONTRACT §4's three ways to prove control of a domain, with the claimant's own token. Shown at
 * set-up (a claim) and in settings (an organization whose domain is not proven yet).
 */
export function DomainProofInstructions({ challenge }: { challenge: DomainChallenge }) {
  const { domain, token } = challenge;
  return (
    <div className="grid gap-4 text-left text-sm" data-testid="domain-proof">
      <p>
        Your verification token is <code className="break-all font-mono font-semibold">{token}</code>. Use any
        one of these ways:
      </p>
      <ol className="grid list-decimal gap-4 pl-5">
        <li className="grid gap-1.5">
          <span className="font-medium">Add a meta tag to your home page</span>
          <span className="text-muted-foreground">
            Put this tag inside the &lt;head&gt; of the HTML page https://{domain}/ serves itself (it must
            load normally; a redirect to another site does not count):
          </span>
          <CodeBlock aria-label="Meta tag">{siteVerificationMetaTag(token)}</CodeBlock>
        </li>
        <li className="grid gap-1.5">
          <span className="font-medium">Or add a DNS TXT record</span>
          <span className="text-muted-foreground">On {domain}, add a TXT record with this value:</span>
          <CodeBlock aria-label="TXT record">{siteVerificationTxtRecord(token)}</CodeBlock>
        </li>
        <li className="grid gap-1.5">
          <span className="font-medium">Or use an e-mail address at {domain}</span>
          <span className="text-muted-foreground">
            Sign up with a work address at {domain} itself and verify it: an address at a subdomain proves
            only that subdomain. Addresses at free e-mail providers such as Gmail or Outlook never count.
          </span>
        </li>
      </ol>
    </div>
  );
}

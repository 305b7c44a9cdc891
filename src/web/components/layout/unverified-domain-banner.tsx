import { TriangleAlert } from "lucide-react";
import { Link } from "react-router";
import { useOrganization } from "@/hooks/use-organization";
import { paths } from "@/lib/paths";

/**
 * Every dashboard page says so while a domain waits for proof (CONTRACT §4): the organization's own
 * (its ads are not published until then, which would otherwise go unnoticed), or a website change,
 * which does not apply until then.
 */
export function UnverifiedDomainBanner() {
  const organization = useOrganization();
  if (!organization.data || (organization.data.domainVerified && !organization.data.pendingDomain))
    return null;
  const { domain, pendingDomain, domainVerified } = organization.data;
  return (
    <div
      role="status"
      data-testid="unverified-domain-banner"
      className="mb-6 flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 text-sm"
    >
      <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
      <span>
        {domainVerified
          ? `Your website change to ${pendingDomain} is not verified yet: your organization stays on ${domain} until it is.`
          : `${domain} is not verified yet: your ads are not published and members cannot be approved.`}
      </span>
      <Link to={paths.settings} className="font-medium underline underline-offset-4">
        Verify your domain
      </Link>
    </div>
  );
}

import { TriangleAlert } from "lucide-react";
import { Link } from "react-router";
import { useOrganization } from "@/hooks/use-organization";
import { paths } from "@/lib/paths";

/**
 * Every dashboard page says so while the organization's domain is not proven (CONTRACT §4): its
 * ads are not published until then, which would otherwise go unnoticed.
 */
export function UnverifiedDomainBanner() {
  const organization = useOrganization();
  if (!organization.data || organization.data.domainVerified) return null;
  return (
    <div
      role="status"
      data-testid="unverified-domain-banner"
      className="mb-6 flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 text-sm"
    >
      <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
      <span>
        {organization.data.domain} is not verified yet: your ads are not published and members cannot be
        approved.
      </span>
      <Link to={paths.settings} className="font-medium underline underline-offset-4">
        Verify your domain
      </Link>
    </div>
  );
}

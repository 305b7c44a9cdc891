import { lazy, Suspense } from "react";
import { useParams } from "react-router";
import { ToolCollateralCard } from "@/features/collateral/tool-collateral-card";
import { PartnerLedgerCard } from "@/features/overview/partners/partner-ledger-card";
import { RevenueCard } from "@/features/overview/revenue-card";
import { ToolDetail } from "@/features/relationships/tool-detail";
import { useCurrentUser } from "@/lib/session";

// Admins only, and loaded apart: the overlap code never weighs on a member's page.
const PartnerOverlapCard = lazy(() =>
  import("@/features/overlap/partner-overlap-card").then((module) => ({
    default: module.PartnerOverlapCard,
  })),
);

/**
 * Tool detail composes four features: the relationship profile (header, Invite, company profile),
 * then the partner's marketing collateral, ready to share (what the page is visited for, issue 37),
 * then the give-and-take: the pair's ledger (30 and 90 days) and revenue both ways, then for admins
 * the account overlap (CONTRACT §11). The cards below the ads also leave the page room to scroll a
 * Copy button above its notice (toast-clearance.ts).
 */
export function ToolDetailRoute() {
  const { id = "" } = useParams();
  const { user } = useCurrentUser();
  return (
    <ToolDetail id={id}>
      {(relationship) => (
        <>
          <ToolCollateralCard relationship={relationship} />
          <PartnerLedgerCard partner={{ id: relationship.targetOrg.id, name: relationship.targetOrg.name }} />
          <RevenueCard partner={{ id: relationship.targetOrg.id, name: relationship.targetOrg.name }} />
          {user?.role === "admin" && user.organizationId && relationship.targetOrg.isPlatformUser ? (
            <Suspense fallback={null}>
              <PartnerOverlapCard
                organizationId={user.organizationId}
                partnerId={relationship.targetOrg.id}
              />
            </Suspense>
          ) : null}
        </>
      )}
    </ToolDetail>
  );
}

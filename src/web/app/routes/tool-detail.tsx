import { useParams } from "react-router";
import { ToolCollateralCard } from "@/features/collateral/tool-collateral-card";
import { PartnerLedgerCard } from "@/features/overview/partners/partner-ledger-card";
import { RevenueCard } from "@/features/overview/revenue-card";
import { ToolDetail } from "@/features/relationships/tool-detail";

/**
 * Tool detail composes three features: the relationship profile (header, Invite, company profile),
 * then the partner's marketing collateral, ready to share (what the page is visited for, issue 37),
 * then the give-and-take: the pair's ledger (30 and 90 days) and revenue both ways. The cards below
 * the ads also leave the page room to scroll a Copy button above its notice (toast-clearance.ts).
 */
export function ToolDetailRoute() {
  const { id = "" } = useParams();
  return (
    <ToolDetail id={id}>
      {(relationship) => (
        <>
          <ToolCollateralCard relationship={relationship} />
          <PartnerLedgerCard partner={{ id: relationship.targetOrg.id, name: relationship.targetOrg.name }} />
          <RevenueCard partner={{ id: relationship.targetOrg.id, name: relationship.targetOrg.name }} />
        </>
      )}
    </ToolDetail>
  );
}

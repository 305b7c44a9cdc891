import { useParams } from "react-router";
import { ToolCollateralCard } from "@/features/collateral/tool-collateral-card";
import { PartnerLedgerCard } from "@/features/overview/partners/partner-ledger-card";
import { RevenueCard } from "@/features/overview/revenue-card";
import { ToolDetail } from "@/features/relationships/tool-detail";

/**
 * Tool detail composes three features: the relationship profile (header, Invite, company profile),
 * the pair's ledger (30 and 90 days) and revenue both ways, and the partner's marketing
 * collateral, rendered below it for the loaded relationship.
 */
export function ToolDetailRoute() {
  const { id = "" } = useParams();
  return (
    <ToolDetail id={id}>
      {(relationship) => (
        <>
          <PartnerLedgerCard partner={{ id: relationship.targetOrg.id, name: relationship.targetOrg.name }} />
          <RevenueCard partner={{ id: relationship.targetOrg.id, name: relationship.targetOrg.name }} />
          <ToolCollateralCard relationship={relationship} />
        </>
      )}
    </ToolDetail>
  );
}

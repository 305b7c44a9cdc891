import { useParams } from "react-router";
import { ToolCollateralCard } from "@/features/collateral/tool-collateral-card";
import { RevenueCard } from "@/features/overview/revenue-card";
import { ToolDetail } from "@/features/relationships/tool-detail";

/**
 * Tool detail composes three features: the relationship profile (header, Invite, company profile),
 * the revenue of the pair both ways, and the partner's marketing collateral, rendered below it for
 * the loaded relationship.
 */
export function ToolDetailRoute() {
  const { id = "" } = useParams();
  return (
    <ToolDetail id={id}>
      {(relationship) => (
        <>
          <RevenueCard partner={{ id: relationship.targetOrg.id, name: relationship.targetOrg.name }} />
          <ToolCollateralCard relationship={relationship} />
        </>
      )}
    </ToolDetail>
  );
}

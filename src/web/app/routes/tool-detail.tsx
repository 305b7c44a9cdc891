import { useParams } from "react-router";
import { ToolCollateralCard } from "@/features/collateral/tool-collateral-card";
import { ToolDetail } from "@/features/relationships/tool-detail";

/**
 * Tool detail composes two features: the relationship profile (header, Invite, company profile)
 * and the partner's marketing collateral, rendered below it for the loaded relationship.
 */
export function ToolDetailRoute() {
  const { id = "" } = useParams();
  return (
    <ToolDetail id={id}>{(relationship) => <ToolCollateralCard relationship={relationship} />}</ToolDetail>
  );
}

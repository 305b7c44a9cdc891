import { useParams } from "react-router";
import { ToolDetail } from "@/features/relationships/tool-detail";

/**
 * Tool detail composes two features: the relationship profile (header, Invite, company profile)
 * and the partner's marketing collateral, rendered below it for the loaded relationship.
 */
export function ToolDetailRoute() {
  const { id = "" } = useParams();
  return (
    <ToolDetail id={id}>
      {/* SLOT (next issue): the Marketing Collateral card (SPEC §2 tool detail) from
          features/collateral, e.g. (relationship) => <CollateralCard relationship={relationship} /> */}
      {() => null}
    </ToolDetail>
  );
}

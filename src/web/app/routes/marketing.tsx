import { CollateralPage } from "@/features/collateral/collateral-page";

export function MarketingRoute() {
  return <CollateralPage />;
}

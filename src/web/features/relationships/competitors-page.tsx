import { ShieldBan } from "lucide-react";
import {
  type RelationshipListConfig,
  RelationshipListPage,
} from "@/features/relationships/relationship-list-page";

const COMPETITORS_PAGE: RelationshipListConfig = {
  type: "competitor",
  title: "Block List",
  addLabel: "Add Competitor",
  removeLabel: "Remove Competitor",
  searchPlaceholder: "Search competitors...",
  icon: ShieldBan,
  emptyText: "Add competitors to your block list to prevent mutual suggestions.",
  noMatchText: "No competitors found matching your search.",
  linksToDetail: false,
};

/** SPEC §2 Competitors (/dashboard/competitors): the block list. */
export function CompetitorsPage() {
  return <RelationshipListPage config={COMPETITORS_PAGE} />;
}

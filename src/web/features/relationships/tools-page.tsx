import { Handshake } from "lucide-react";
import {
  type RelationshipListConfig,
  RelationshipListPage,
} from "@/features/relationships/relationship-list-page";

const TOOLS_PAGE: RelationshipListConfig = {
  type: "complement",
  title: "Buddies",
  addLabel: "Add Tool",
  removeLabel: "Remove Tool",
  searchPlaceholder: "Search tools...",
  icon: Handshake,
  emptyText: "Add tools that integrate well with your product.",
  noMatchText: "No tools found matching your search.",
  linksToDetail: true,
};

/** SPEC §2 Complementary Tools (/dashboard/tools). */
export function ToolsPage() {
  return <RelationshipListPage config={TOOLS_PAGE} />;
}

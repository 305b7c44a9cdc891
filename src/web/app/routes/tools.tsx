import { ToolsPage } from "@/features/relationships/tools-page";

export function ToolsRoute() {
  return <ToolsPage />;
}

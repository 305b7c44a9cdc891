import { Download } from "lucide-react";
import type { ComponentProps } from "react";
import { Button } from "@/components/ui/button";

/** The overview's "Export CSV" button, the same before and after its dialog has loaded. */
export function ExportCsvTrigger(props: ComponentProps<typeof Button>) {
  return (
    <Button variant="outline" {...props}>
      <Download />
      Export CSV
    </Button>
  );
}

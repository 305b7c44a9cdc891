import { Download } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { LoadBoundary } from "@/components/load-boundary";
import { Button } from "@/components/ui/button";

const loadDialog = () => import("@/features/overview/export-csv-dialog");
const ExportCsvDialog = lazy(() => loadDialog().then((module) => ({ default: module.ExportCsvDialog })));

/**
 * The overview's "Export CSV": the button is there from the first screen on, and keeps the focus
 * while its dialog, the form and the export rules load on first use (a pointer over it or focus on
 * it starts the load early). A dialog that cannot load leaves the button, not an error, on the page.
 */
export function ExportCsvButton() {
  const button = useRef<HTMLButtonElement>(null);
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="outline"
        ref={button}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={loadDialog}
        onFocus={loadDialog}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <Download />
        Export CSV
      </Button>
      {wanted ? (
        <LoadBoundary fallback={null}>
          <Suspense fallback={null}>
            <ExportCsvDialog open={open} onOpenChange={setOpen} returnFocusTo={button} />
          </Suspense>
        </LoadBoundary>
      ) : null}
    </>
  );
}

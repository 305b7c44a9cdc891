import { lazy, Suspense, useState } from "react";
import { LoadBoundary } from "@/components/load-boundary";
import { ExportCsvTrigger } from "@/features/overview/export-csv-trigger";

const loadDialog = () => import("@/features/overview/export-csv-dialog");
const ExportCsvDialog = lazy(() => loadDialog().then((module) => ({ default: module.ExportCsvDialog })));

/**
 * The button alone until first used: the dialog, its form and the export rules load then (a
 * pointer over it or focus on it starts the load early), not with the overview's first screen.
 */
export function ExportCsvButton() {
  const [wanted, setWanted] = useState(false);
  if (wanted) {
    // A dialog that cannot load leaves the button disabled, not the overview replaced by an error.
    return (
      <LoadBoundary fallback={<ExportCsvTrigger disabled />}>
        <Suspense fallback={<ExportCsvTrigger disabled />}>
          <ExportCsvDialog defaultOpen />
        </Suspense>
      </LoadBoundary>
    );
  }
  return (
    <ExportCsvTrigger onPointerEnter={loadDialog} onFocus={loadDialog} onClick={() => setWanted(true)} />
  );
}

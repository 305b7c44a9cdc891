import { lazy, Suspense, useState } from "react";
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
    return (
      <Suspense fallback={<ExportCsvTrigger disabled />}>
        <ExportCsvDialog defaultOpen />
      </Suspense>
    );
  }
  return (
    <ExportCsvTrigger onPointerEnter={loadDialog} onFocus={loadDialog} onClick={() => setWanted(true)} />
  );
}

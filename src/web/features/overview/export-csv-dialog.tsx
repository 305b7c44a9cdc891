import { isoDay, windowStart } from "@shared/days";
import { EXPORT_MAX_DAYS, EXPORT_YEARS } from "@shared/exports";
import { Download } from "lucide-react";
import { type RefObject, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/components/ui/toast";
import { apiDownload, errorMessage } from "@/lib/api-client";
import { saveFile } from "@/lib/save-file";

/** The days the server exports (its 400 otherwise): the date picker offers no others. */
const DAY_BOUNDS = { min: `${EXPORT_YEARS.first}-01-01`, max: `${EXPORT_YEARS.last}-12-31` };

type Kind = "conversions" | "clicks";
const KINDS: { value: Kind; label: string }[] = [
  { value: "conversions", label: "Conversions" },
  { value: "clicks", label: "Clicks" },
];

/**
 * The overview's 'Export CSV' (CONTRACT §9): conversions or clicks, both directions, for UTC days
 * from and to (30 days by default, at most 366). The server checks the range and says what is
 * wrong; its message shows under the fields. Loaded on the first click of the overview's button,
 * which opens and closes it (export-csv-button.tsx) and gets the focus back when it closes.
 */
export function ExportCsvDialog({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}) {
  const [kind, setKind] = useState<Kind>("conversions");
  const [from, setFrom] = useState(() => windowStart(30));
  const [to, setTo] = useState(() => isoDay(Date.now()));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fromId = useId();
  const toId = useId();

  const download = async (event: React.FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const query = new URLSearchParams({ from, to });
      const file = await apiDownload(`/api/exports/${kind}.csv?${query}`);
      saveFile(file.blob, file.filename ?? `${kind}-${from}-to-${to}.csv`);
      toast.success("Export downloaded");
      onOpenChange(false);
    } catch (failure) {
      setError(errorMessage(failure, "Failed to export"));
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        onOpenChange(next);
        setError(null);
      }}
    >
      <DialogContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Export CSV</DialogTitle>
          <DialogDescription>
            Every event of your organization in both directions, for whole days in UTC (at most{" "}
            {EXPORT_MAX_DAYS} days).
          </DialogDescription>
        </DialogHeader>
        <form aria-label="Export CSV" className="grid gap-4" onSubmit={download}>
          {/* biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a fieldset of inputs. */}
          <div role="group" aria-label="Events" className="flex flex-wrap gap-2">
            {KINDS.map((option) => (
              <Button
                key={option.value}
                type="button"
                size="sm"
                variant={kind === option.value ? "secondary" : "ghost"}
                aria-pressed={kind === option.value}
                onClick={() => setKind(option.value)}
              >
                {option.label}
              </Button>
            ))}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor={fromId}>From</Label>
              <Input
                id={fromId}
                type="date"
                {...DAY_BOUNDS}
                value={from}
                onChange={(event) => setFrom(event.target.value)}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={toId}>To</Label>
              <Input
                id={toId}
                type="date"
                {...DAY_BOUNDS}
                value={to}
                onChange={(event) => setTo(event.target.value)}
              />
            </div>
          </div>
          <FormMessage role="alert">{error}</FormMessage>
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              <Download />
              Download
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

import { Label } from "@/components/ui/label";

/** A button-like label that picks one file and hands its text over (a list, or an export). */
export function FileTextPicker({
  label,
  accept,
  onText,
}: {
  label: string;
  accept: string;
  onText: (text: string) => Promise<void>;
}) {
  return (
    <Label className="cursor-pointer rounded-md border px-3 py-1.5 font-medium text-sm focus-within:ring-[3px] focus-within:ring-ring/50 hover:bg-muted">
      {label}
      <input
        type="file"
        accept={accept}
        className="sr-only"
        onChange={async (event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) await onText(await file.text());
        }}
      />
    </Label>
  );
}

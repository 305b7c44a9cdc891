import type { CompanyStepInput } from "@shared/onboarding";
import { useId } from "react";
import { type Control, useController } from "react-hook-form";
import { FormMessage } from "@/components/ui/form-message";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

const SCHEME = /^https?:\/\//i;

type WebsiteFieldProps = {
  control: Control<CompanyStepInput>;
  /** Runs after the user leaves the field (SPEC §5 autofill). */
  onLeave: (website: string) => void;
};

/** SPEC §2 step 1 website: a fixed 'https://' prefix is shown, so a pasted scheme is dropped. */
export function WebsiteField({ control, onLeave }: WebsiteFieldProps) {
  const { field, fieldState } = useController({ control, name: "website" });
  const id = useId();
  const messageId = `${id}-message`;
  const error = fieldState.error?.message;

  const leave = () => {
    const website = (field.value ?? "").trim().replace(SCHEME, "");
    if (website !== field.value) field.onChange(website);
    field.onBlur();
    onLeave(website);
  };

  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Website</Label>
      <div
        className={cn(
          "flex h-9 w-full overflow-hidden rounded-md border border-input shadow-xs transition-[color,box-shadow]",
          "focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50",
          error && "border-destructive",
        )}
      >
        <span
          aria-hidden="true"
          className="flex items-center border-r bg-muted px-3 text-muted-foreground text-sm"
        >
          https://
        </span>
        <input
          id={id}
          name={field.name}
          ref={field.ref}
          type="text"
          inputMode="url"
          autoComplete="url"
          placeholder="acme.com"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? messageId : undefined}
          value={field.value ?? ""}
          onChange={field.onChange}
          onBlur={leave}
          disabled={field.disabled}
          className="min-w-0 flex-1 bg-transparent px-3 text-base outline-none placeholder:text-muted-foreground disabled:opacity-50 md:text-sm"
        />
      </div>
      <FormMessage id={messageId}>{error}</FormMessage>
    </div>
  );
}

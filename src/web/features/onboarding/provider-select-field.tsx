import { PROVIDER_LABELS } from "@shared/onboarding";
import { useId } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { FormMessage } from "@/components/ui/form-message";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

type ProviderSelectFieldProps<TValues extends FieldValues, TOutput> = {
  control: Control<TValues, unknown, TOutput>;
  name: FieldPath<TValues>;
  label: string;
  providers: readonly string[];
};

/** An e-mail provider picker (SPEC §3 options, shown with their product names). */
export function ProviderSelectField<TValues extends FieldValues, TOutput = TValues>({
  control,
  name,
  label,
  providers,
}: ProviderSelectFieldProps<TValues, TOutput>) {
  const { field, fieldState } = useController({ control, name });
  const id = useId();
  const messageId = `${id}-message`;
  const error = fieldState.error?.message;

  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select value={field.value ?? ""} onValueChange={field.onChange} name={field.name}>
        <SelectTrigger
          id={id}
          ref={field.ref}
          onBlur={field.onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? messageId : undefined}
        >
          <SelectValue placeholder="Select a provider" />
        </SelectTrigger>
        <SelectContent>
          {providers.map((provider) => (
            <SelectItem key={provider} value={provider}>
              {PROVIDER_LABELS[provider] ?? provider}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <FormMessage id={messageId}>{error}</FormMessage>
    </div>
  );
}

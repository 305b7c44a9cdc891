import { type ComponentProps, type ReactNode, useId } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

type FormFieldProps<TValues extends FieldValues, TOutput> = Omit<
  ComponentProps<typeof Input>,
  "name" | "value" | "defaultValue" | "onChange" | "onBlur" | "id"
> & {
  control: Control<TValues, unknown, TOutput>;
  name: FieldPath<TValues>;
  label: string;
  /** Shown at the end of the label row (e.g. a 'Forgot your password?' link). */
  labelAction?: ReactNode;
  /** Shown between the input and its message (e.g. a live checklist). */
  children?: ReactNode;
};

/**
 * A labelled text input bound to react-hook-form, with its zod message underneath and the
 * aria wiring (aria-invalid, aria-describedby) that screen readers and tests rely on.
 */
function FormField<TValues extends FieldValues, TOutput = TValues>({
  control,
  name,
  label,
  labelAction,
  children,
  ...inputProps
}: FormFieldProps<TValues, TOutput>) {
  const { field, fieldState } = useController({ control, name });
  const id = useId();
  const messageId = `${id}-message`;
  const error = fieldState.error?.message;

  return (
    <div data-slot="form-field" className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {labelAction}
      </div>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? messageId : undefined}
        {...inputProps}
        {...field}
        value={field.value ?? ""}
      />
      {children}
      <FormMessage id={messageId}>{error}</FormMessage>
    </div>
  );
}

export { FormField };

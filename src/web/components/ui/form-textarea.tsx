import { type ComponentProps, type ReactNode, useId } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { FormMessage } from "@/components/ui/form-message";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";

type FormTextareaProps<TValues extends FieldValues, TOutput> = Omit<
  ComponentProps<typeof Textarea>,
  "name" | "value" | "defaultValue" | "onChange" | "onBlur" | "id"
> & {
  control: Control<TValues, unknown, TOutput>;
  name: FieldPath<TValues>;
  label: string;
  /** Shown at the end of the label row (e.g. a live character counter), as in FormField. */
  labelAction?: ReactNode;
};

/** FormField's multi-line sibling: a labelled textarea with its message and aria wiring. */
function FormTextarea<TValues extends FieldValues, TOutput = TValues>({
  control,
  name,
  label,
  labelAction,
  ...textareaProps
}: FormTextareaProps<TValues, TOutput>) {
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
      <Textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? messageId : undefined}
        {...textareaProps}
        {...field}
        value={field.value ?? ""}
      />
      <FormMessage id={messageId}>{error}</FormMessage>
    </div>
  );
}

export { FormTextarea };

import type { ComponentProps, ReactNode } from "react";
import type { Control, FieldPath, FieldValues } from "react-hook-form";
import { FieldFrame } from "@/components/ui/field-frame";
import { useBoundField } from "@/components/ui/form-field";
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
  const { frame, controlProps } = useBoundField(control, name);
  return (
    <FieldFrame {...frame} label={label} labelAction={labelAction}>
      <Textarea {...textareaProps} {...controlProps} />
    </FieldFrame>
  );
}

export { FormTextarea };

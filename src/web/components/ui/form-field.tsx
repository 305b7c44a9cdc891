import { type ComponentProps, type ReactNode, useId } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { FieldFrame } from "@/components/ui/field-frame";
import { Input } from "@/components/ui/input";

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
 * Binds a control to react-hook-form with the aria wiring (aria-invalid, aria-describedby) that
 * screen readers and tests rely on; FormField and FormTextarea share it.
 */
export function useBoundField<TValues extends FieldValues, TOutput>(
  control: Control<TValues, unknown, TOutput>,
  name: FieldPath<TValues>,
) {
  const { field, fieldState } = useController({ control, name });
  const id = useId();
  const messageId = `${id}-message`;
  const error = fieldState.error?.message;
  return {
    frame: { id, messageId, error },
    controlProps: {
      id,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? messageId : undefined,
      ...field,
      value: field.value ?? "",
    },
  };
}

/** A labelled text input bound to react-hook-form, with its zod message underneath. */
function FormField<TValues extends FieldValues, TOutput = TValues>({
  control,
  name,
  label,
  labelAction,
  children,
  ...inputProps
}: FormFieldProps<TValues, TOutput>) {
  const { frame, controlProps } = useBoundField(control, name);
  return (
    <FieldFrame {...frame} label={label} labelAction={labelAction}>
      <Input {...inputProps} {...controlProps} />
      {children}
    </FieldFrame>
  );
}

export { FormField };

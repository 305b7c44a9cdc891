import { type FormEvent, useId, useRef, useState } from "react";
import * as z from "zod/mini";

type Values = Record<string, string>;

/**
 * A form of text fields checked by a shared zod schema, as the app's react-hook-form forms behave:
 * checked on submit, then again on every change, the first message of each field shown, focus on
 * the first field in error. The sign-in page uses it instead of react-hook-form, whose size would
 * be a fifth of everything that page loads.
 */
export function useSchemaForm<S extends z.ZodMiniType<Record<string, unknown>, Values>>(
  schema: S,
  defaults: Values,
) {
  const [values, setValues] = useState<Values>(defaults);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const checked = useRef(false);
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const id = useId();

  function errorsOf(next: Values): Record<string, string> {
    const result = z.safeParse(schema, next);
    const found: Record<string, string> = {};
    if (result.success) return found;
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? "");
      found[name] ??= issue.message;
    }
    return found;
  }

  function field(name: string) {
    const fieldId = `${id}-${name}`;
    const messageId = `${fieldId}-message`;
    const error = errors[name];
    return {
      frame: { id: fieldId, messageId, error },
      controlProps: {
        id: fieldId,
        name,
        value: values[name] ?? "",
        "aria-invalid": error ? true : undefined,
        "aria-describedby": error ? messageId : undefined,
        ref: (input: HTMLInputElement | null) => {
          if (input) inputs.current.set(name, input);
          else inputs.current.delete(name);
        },
        onChange: (event: { target: { value: string } }) => {
          const next = { ...values, [name]: event.target.value };
          setValues(next);
          if (checked.current) setErrors(errorsOf(next));
        },
      },
    };
  }

  /** Calls `submit` with the schema's output once every field passes. */
  function handleSubmit(submit: (data: z.output<S>) => void) {
    return (event: FormEvent) => {
      event.preventDefault();
      checked.current = true;
      const result = z.safeParse(schema, values);
      if (result.success) {
        setErrors({});
        submit(result.data);
        return;
      }
      const found = errorsOf(values);
      setErrors(found);
      const first = Object.keys(values).find((name) => found[name]);
      if (first) inputs.current.get(first)?.focus();
    };
  }

  function reset() {
    checked.current = false;
    setValues(defaults);
    setErrors({});
  }

  return { values, field, handleSubmit, reset };
}

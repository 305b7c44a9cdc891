import { zodResolver } from "@hookform/resolvers/zod";
import { newPasswordSchema } from "@shared/auth";
import { type Control, useForm } from "react-hook-form";
import { z } from "zod";
import { FormField } from "@/components/ui/form-field";

/** SPEC §5 Reset: the shared length rule, plus a confirmation that must match. */
const newPasswordFormSchema = z
  .object({ password: newPasswordSchema, confirmPassword: z.string() })
  .refine((values) => values.password === values.confirmPassword, {
    error: "Passwords don't match",
    path: ["confirmPassword"],
  });
type NewPasswordValues = z.infer<typeof newPasswordFormSchema>;

export function useNewPasswordForm() {
  return useForm({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { password: "", confirmPassword: "" },
  });
}

/** The reset screen's two fields, also used to choose a password after a verification. */
export function NewPasswordFields({ control }: { control: Control<NewPasswordValues> }) {
  return (
    <>
      <FormField
        control={control}
        name="password"
        label="New Password"
        type="password"
        autoComplete="new-password"
      />
      <FormField
        control={control}
        name="confirmPassword"
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
      />
    </>
  );
}

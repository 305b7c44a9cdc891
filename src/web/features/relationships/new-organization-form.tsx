import { zodResolver } from "@hookform/resolvers/zod";
import { websiteSchema } from "@shared/onboarding";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Spinner } from "@/components/ui/spinner";

/**
 * SPEC §5: the manual form needs both a name and a valid website; either missing shows the one
 * error 'Please enter a valid website' (under the website). The website rule is the shared one.
 */
const newOrganizationSchema = z
  .object({ name: z.string().trim(), website: z.string().trim() })
  .refine(({ name, website }) => name !== "" && websiteSchema.safeParse(website).success, {
    error: "Please enter a valid website",
    path: ["website"],
  });
type NewOrganization = z.infer<typeof newOrganizationSchema>;

type NewOrganizationFormProps = {
  submitLabel: string;
  busy: boolean;
  onSubmit: (organization: NewOrganization) => void;
  onBack: () => void;
};

/** The add control's third state: a company that is not on the platform yet. */
export function NewOrganizationForm({ submitLabel, busy, onSubmit, onBack }: NewOrganizationFormProps) {
  const form = useForm({
    resolver: zodResolver(newOrganizationSchema),
    defaultValues: { name: "", website: "" },
  });

  return (
    <form
      aria-label="New organization"
      noValidate
      className="grid gap-3"
      onSubmit={form.handleSubmit((values) => onSubmit(values))}
    >
      <FormField control={form.control} name="name" label="Name" placeholder="Acme" />
      <FormField control={form.control} name="website" label="Website" placeholder="acme.com" />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? <Spinner /> : null}
          {submitLabel}
        </Button>
        <Button type="button" variant="ghost" onClick={onBack}>
          Back to search
        </Button>
      </div>
    </form>
  );
}

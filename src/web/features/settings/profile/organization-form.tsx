import { zodResolver } from "@hookform/resolvers/zod";
import { type Organization, updateOrganizationSchema } from "@shared/organizations";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { FormTextarea } from "@/components/ui/form-textarea";
import { Spinner } from "@/components/ui/spinner";
import { useUpdateOrganization } from "@/features/settings/profile/api";
import { LogoUpload } from "@/features/settings/profile/logo-upload";

/** The size input is text: SPEC §5 parses it as an integer and omits it when empty. */
const organizationFormSchema = updateOrganizationSchema.extend({
  size: z
    .string()
    .trim()
    .transform((value): number | null | undefined => (value === "" ? undefined : Number.parseInt(value, 10)))
    .pipe(updateOrganizationSchema.shape.size),
});

/** A website change waiting for proof shows as typed, so saving the form again keeps it. */
function formValues(organization: Organization) {
  return {
    name: organization.pendingName ?? organization.name,
    website: organization.pendingDomain ? `https://${organization.pendingDomain}` : organization.website,
    industry: organization.industry ?? "",
    size: organization.size === null ? "" : String(organization.size),
    description: organization.description ?? "",
  };
}

type OrganizationFormProps = {
  organization: Organization;
  /** Members see the form read-only; only admins may change it (the server enforces it too). */
  canEdit: boolean;
};

export function OrganizationForm({ organization, canEdit }: OrganizationFormProps) {
  const update = useUpdateOrganization();
  const form = useForm({
    resolver: zodResolver(organizationFormSchema),
    defaultValues: formValues(organization),
  });

  return (
    <form
      aria-label="Organization Profile"
      noValidate
      onSubmit={form.handleSubmit((values) => update.mutate(values))}
    >
      <fieldset disabled={!canEdit} className="grid gap-4">
        <LogoUpload organization={organization} disabled={!canEdit} />
        <FormField control={form.control} name="name" label="Name" autoComplete="organization" />
        <FormField control={form.control} name="website" label="Website" placeholder="acme.com" />
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField control={form.control} name="industry" label="Industry" placeholder="e.g. Software" />
          <FormField
            control={form.control}
            name="size"
            label="Size (number of employees)"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
          />
        </div>
        <FormTextarea control={form.control} name="description" label="Description" rows={4} />
        <div>
          <Button type="submit" disabled={!canEdit || update.isPending} aria-busy={update.isPending}>
            {update.isPending ? <Spinner /> : null}
            Save Changes
          </Button>
        </div>
      </fieldset>
    </form>
  );
}

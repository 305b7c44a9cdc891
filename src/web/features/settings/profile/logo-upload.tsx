import { LOGO_TYPES, type Organization } from "@shared/organizations";
import type { ChangeEvent } from "react";
import { useId } from "react";
import { OrgLogo } from "@/components/org-logo";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/toast";
import { useUploadLogo } from "@/features/settings/profile/api";
import { checkLogoFile } from "@/features/settings/profile/logo-file";

type LogoUploadProps = { organization: Organization; disabled: boolean };

/** Uploads as soon as a file is picked; a wrong type or size never leaves the browser. */
export function LogoUpload({ organization, disabled }: LogoUploadProps) {
  const id = useId();
  const upload = useUploadLogo();

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that picking the same file again still triggers a change.
    event.target.value = "";
    if (!file) return;
    const problem = checkLogoFile(file);
    if (problem) {
      toast.error(problem);
      return;
    }
    upload.mutate(file);
  };

  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Logo</Label>
      <div className="flex items-center gap-4">
        <OrgLogo
          domain={organization.domain}
          name={organization.name}
          logoUrl={organization.logoUrl}
          className="size-16"
        />
        <div className="grid gap-1">
          <div className="flex items-center gap-2">
            <Input
              id={id}
              type="file"
              data-testid="logo-input"
              accept={LOGO_TYPES.join(",")}
              disabled={disabled || upload.isPending}
              onChange={onChange}
              className="max-w-xs"
            />
            {upload.isPending ? <Spinner /> : null}
          </div>
          <p className="text-muted-foreground text-xs">JPEG or PNG, less than 2MB.</p>
        </div>
      </div>
    </div>
  );
}

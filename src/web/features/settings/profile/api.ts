import type { Organization, UpdateOrganizationInput } from "@shared/organizations";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { bumpLogoVersion } from "@/components/org-logo";
import { ORGANIZATION_KEY } from "@/hooks/use-organization";
import { apiRequest, errorMessage } from "@/lib/api-client";

/** Admins only (the server answers 403 to members, whose form is read-only anyway). */
export function useUpdateOrganization() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateOrganizationInput) =>
      apiRequest<Organization>(ORGANIZATION_KEY[0], { method: "PATCH", body: input }),
    onSuccess: (organization) => {
      client.setQueryData(ORGANIZATION_KEY, organization);
      toast.success("Settings updated successfully");
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to update settings")),
  });
}

export function useUploadLogo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append("logo", file);
      return apiRequest<Organization>("/api/organization/logo", { method: "POST", body });
    },
    onSuccess: (organization) => {
      client.setQueryData(ORGANIZATION_KEY, organization);
      // The URL stays /api/logos/{domain}.jpg, so the browser would keep showing the old image.
      bumpLogoVersion(client, organization.domain);
      toast.success("Logo updated successfully");
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to upload logo")),
  });
}

import type { OrganizationDomainStatus } from "@shared/domain-verification";
import type { Organization, UpdateOrganizationInput } from "@shared/organizations";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { bumpLogoVersion } from "@/components/org-logo";
import { toast } from "@/components/ui/toast";
import { ORGANIZATION_KEY } from "@/hooks/use-organization";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { CURRENT_USER_KEY } from "@/lib/session";

/** Admins only (the server answers 403 to members, whose form is read-only anyway). */
export function useUpdateOrganization() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateOrganizationInput) =>
      apiRequest<Organization>(ORGANIZATION_KEY[0], { method: "PATCH", body: input }),
    onSuccess: (organization) => {
      client.setQueryData(ORGANIZATION_KEY, organization);
      // A new website is a new domain to prove: the proof status and approvals change with it.
      void client.invalidateQueries({ queryKey: DOMAIN_STATUS_KEY });
      void client.invalidateQueries({ queryKey: CURRENT_USER_KEY });
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

const DOMAIN_STATUS_KEY = ["/api/organization/domain-verification"] as const;

/** An admin's view of the organization's domain proof: its domain and token (CONTRACT §4). */
export function useDomainStatus(enabled: boolean) {
  return useQuery<OrganizationDomainStatus>({ queryKey: DOMAIN_STATUS_KEY, enabled });
}

/** "Keep DOMAIN": drops the website change that waits for proof. */
export function useCancelWebsiteChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<Organization>("/api/organization/pending-domain", { method: "DELETE" }),
    onSuccess: (organization) => {
      client.setQueryData(ORGANIZATION_KEY, organization);
      void client.invalidateQueries({ queryKey: DOMAIN_STATUS_KEY });
      toast.success("Settings updated successfully");
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to update settings")),
  });
}

/** 'Check again' for the organization's domain; once proven, the organization is reloaded. */
export function useCheckOrganizationDomain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<OrganizationDomainStatus>(DOMAIN_STATUS_KEY[0], { method: "POST" }),
    onSuccess: (status) => {
      client.setQueryData(DOMAIN_STATUS_KEY, status);
      if (!status.verified) return;
      toast.success(status.message ?? "Domain verified");
      void client.invalidateQueries({ queryKey: ORGANIZATION_KEY });
      void client.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to check the domain")),
  });
}

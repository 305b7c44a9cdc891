import type { Organization } from "@shared/organizations";
import { useQuery } from "@tanstack/react-query";

export const ORGANIZATION_KEY = ["/api/organization"] as const;

/** The caller's organization (settings form, suggestions' domain, overview profile). */
export function useOrganization() {
  return useQuery<Organization>({ queryKey: ORGANIZATION_KEY });
}

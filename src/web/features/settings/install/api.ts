import type { InstallSettings } from "@shared/organizations";
import { useQuery } from "@tanstack/react-query";

/** The organization id and PUBLIC_URL the install scripts are pre-configured with. */
export function useInstallSettings() {
  return useQuery<InstallSettings>({ queryKey: ["/api/organization/install"] });
}

import type { MeResponse, User } from "@shared/auth";
import type { CompanyStepInput, OnboardingInput, WebsiteSuggestion } from "@shared/onboarding";
import type { SiteMetadata } from "@shared/organizations";
import type { SuggestionsResponse } from "@shared/suggestions";
import { normalizeWebsite } from "@shared/website";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { toast } from "@/components/ui/toast";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { paths } from "@/lib/paths";
import { invalidateApiPaths, queryClient } from "@/lib/query-client";
import { CURRENT_USER_KEY } from "@/lib/session";

/**
 * SPEC §5 autofill: the website's name and description. Cached per domain, so leaving the field
 * twice asks once; a failure is only logged (SPEC §8) and fills nothing.
 */
export async function lookupSiteMetadata(domain: string): Promise<SiteMetadata | null> {
  try {
    return await queryClient.fetchQuery<SiteMetadata>({
      queryKey: [`/api/metadata?${new URLSearchParams({ domain })}`],
    });
  } catch (error) {
    console.error("Failed to fetch site metadata", error);
    return null;
  }
}

/**
 * The domain of the address the user signed up with, for step 1's website (null for free mail). A
 * failure leaves the field empty, as before: the user types it.
 */
export function useWebsiteSuggestion() {
  return useQuery<WebsiteSuggestion>({ queryKey: ["/api/onboarding/website"] });
}

function suggestionsPath(company: CompanyStepInput): string {
  const params = new URLSearchParams({
    domain: normalizeWebsite(company.website),
    name: company.companyName,
    description: company.description,
    transactional: company.transactionalEmailProvider,
    marketing: company.marketingEmailProvider,
  });
  return `/api/ecosystem/suggestions?${params}`;
}

/**
 * Steps 2 and 3 chips, for the company of step 1. SPEC §7: sent without the auth header; SPEC §5:
 * only for a domain with a dot; SPEC §8: a failure is only logged (the steps then offer nothing).
 */
export function useOnboardingSuggestions(company: CompanyStepInput | null) {
  const path = company ? suggestionsPath(company) : "";
  return useQuery<SuggestionsResponse>({
    queryKey: [path],
    enabled: company !== null && normalizeWebsite(company.website).includes("."),
    queryFn: async () => {
      try {
        return await apiRequest<SuggestionsResponse>(path, { anonymous: true });
      } catch (error) {
        console.error("Failed to fetch suggestions", error);
        throw error;
      }
    },
  });
}

type OnboardingResponse = { user: User; message: string };

/** Onboarding done: refresh the data it created and go to the dashboard (SPEC §4). */
function useFinishOnboarding() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return () => {
    toast.success("Onboarding completed successfully");
    void invalidateApiPaths(
      client,
      "/api/organization",
      "/api/relationships",
      "/api/ecosystem/suggestions",
      CURRENT_USER_KEY[0],
    );
    navigate(paths.dashboard, { replace: true });
  };
}

/**
 * SPEC §4 Onboarding: 201 → cache the user, refresh the data onboarding created, go to the
 * dashboard. 202 → /setup shows what the user waits for: an admin's approval (the company is on
 * Buddy already) or proof that they control the domain (CONTRACT §4).
 */
export function useCompleteOnboarding() {
  const client = useQueryClient();
  const finish = useFinishOnboarding();
  return useMutation({
    mutationFn: (input: OnboardingInput) =>
      apiRequest<OnboardingResponse>("/api/onboarding", { method: "POST", body: input }),
    onSuccess: ({ user, message }) => {
      client.setQueryData<MeResponse>(CURRENT_USER_KEY, { user });
      if (user.pendingOrganization || user.domainClaim) toast(message);
      else finish();
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to complete onboarding")),
  });
}

/**
 * The verification screen's 'Check again' (CONTRACT §4): set up → as a completed onboarding;
 * someone else proved the domain meanwhile → the pending notice; not found yet → the message.
 */
export function useCheckDomainClaim() {
  const client = useQueryClient();
  const finish = useFinishOnboarding();
  return useMutation({
    mutationFn: () => apiRequest<OnboardingResponse>("/api/onboarding/domain-check", { method: "POST" }),
    onSuccess: ({ user, message }) => {
      client.setQueryData<MeResponse>(CURRENT_USER_KEY, { user });
      // Not found yet: the screen shows the message beside the instructions.
      if (user.domainClaim) return;
      if (user.pendingOrganization) toast(message);
      else finish();
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to check the domain")),
  });
}

/** 'Use a different website': the claim is dropped and the wizard starts again. */
export function useCancelDomainClaim() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<null>("/api/onboarding/domain-claim", { method: "DELETE" }),
    onSuccess: () => invalidateApiPaths(client, CURRENT_USER_KEY[0]),
    onError: (error) => toast.error(errorMessage(error, "Failed to change the website")),
  });
}

/** Every URL of the SPA, once (SPEC §2). Dashboard paths are absolute so links and routes share them. */
export const paths = {
  auth: "/auth",
  verifyEmail: "/verify-email",
  forgotPassword: "/forgot-password",
  resetPassword: "/reset-password",
  confirmDeletion: "/confirm-deletion",
  setup: "/setup",
  dashboard: "/dashboard",
  tools: "/dashboard/tools",
  toolDetail: "/dashboard/tools/:id",
  competitors: "/dashboard/competitors",
  suggestions: "/dashboard/suggestions",
  marketing: "/dashboard/marketing",
  apiDocs: "/dashboard/api-docs",
  settings: "/dashboard/settings",
} as const;

/** Built by hand, not with the router's generatePath: the sign-in page loads this file without the router. */
export function toolDetailPath(id: string): string {
  return paths.toolDetail.replace(":id", encodeURIComponent(id));
}

/** SPEC §2: reachable without a session; the current-user query stays off on them. */
const PUBLIC_PATHS: readonly string[] = [
  paths.auth,
  paths.verifyEmail,
  paths.forgotPassword,
  paths.resetPassword,
  paths.confirmDeletion,
];

export function isPublicPath(pathname: string): boolean {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return PUBLIC_PATHS.includes(trimmed);
}

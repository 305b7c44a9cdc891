import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { RedirectSignedIn, RequireOnboarded, RequireOnboardingPending } from "@/app/guards";
import { DashboardLayoutRoute, dashboardLayoutLoader } from "@/app/routes/dashboard-layout";
import { OverviewRoute, overviewLoader } from "@/app/routes/overview";
import { PageLoader } from "@/components/layout/page-loader";
import { RouteError } from "@/components/layout/route-error";
import { paths } from "@/lib/paths";

/** The pages inside the dashboard shell (paths are absolute, from `paths`). */
const dashboardPages: RouteObject[] = [
  { index: true, Component: OverviewRoute, loader: overviewLoader },
  { path: paths.tools, lazy: () => import("./routes/tools").then((m) => ({ Component: m.ToolsRoute })) },
  {
    path: paths.toolDetail,
    lazy: () => import("./routes/tool-detail").then((m) => ({ Component: m.ToolDetailRoute })),
  },
  {
    path: paths.competitors,
    lazy: () => import("./routes/competitors").then((m) => ({ Component: m.CompetitorsRoute })),
  },
  {
    path: paths.suggestions,
    lazy: () => import("./routes/suggestions").then((m) => ({ Component: m.SuggestionsRoute })),
  },
  {
    path: paths.marketing,
    lazy: () => import("./routes/marketing").then((m) => ({ Component: m.MarketingRoute })),
  },
  {
    path: paths.apiDocs,
    lazy: () => import("./routes/api-docs").then((m) => ({ Component: m.ApiDocsRoute })),
  },
  {
    path: paths.settings,
    lazy: () => import("./routes/settings").then((m) => ({ Component: m.SettingsRoute })),
  },
];

/**
 * The dashboard's shell and its home page come with the entry, since a signed-in visit starts
 * there: no lazy step between the session and the first screen. Every other screen is a lazy
 * chunk (the sign-in page has an entry of its own, auth.html). Guards stay in the entry chunk:
 * they are small and decide where to go before any screen loads.
 */
export const routes: RouteObject[] = [
  {
    hydrateFallbackElement: <PageLoader />,
    errorElement: <RouteError fullPage />,
    children: [
      {
        path: paths.auth,
        element: <RedirectSignedIn />,
        children: [
          { index: true, lazy: () => import("./routes/auth").then((m) => ({ Component: m.AuthRoute })) },
        ],
      },
      {
        path: paths.confirmDeletion,
        lazy: () => import("./routes/confirm-deletion").then((m) => ({ Component: m.ConfirmDeletionRoute })),
      },
      {
        path: paths.verifyEmail,
        lazy: () => import("./routes/verify-email").then((m) => ({ Component: m.VerifyEmailRoute })),
      },
      {
        path: paths.forgotPassword,
        lazy: () => import("./routes/forgot-password").then((m) => ({ Component: m.ForgotPasswordRoute })),
      },
      {
        path: paths.resetPassword,
        lazy: () => import("./routes/reset-password").then((m) => ({ Component: m.ResetPasswordRoute })),
      },
      {
        path: paths.setup,
        element: <RequireOnboardingPending />,
        children: [
          { index: true, lazy: () => import("./routes/setup").then((m) => ({ Component: m.SetupRoute })) },
        ],
      },
      {
        path: paths.dashboard,
        element: <RequireOnboarded />,
        children: [
          {
            Component: DashboardLayoutRoute,
            loader: dashboardLayoutLoader,
            children: [
              {
                // Inside the shell: a crashing page is replaced by the error, the shell stays.
                errorElement: <RouteError />,
                children: dashboardPages,
              },
            ],
          },
        ],
      },
      // SPEC §2: /dashboard is the fallback for unknown paths (the guards take it from there).
      { path: "*", element: <Navigate to={paths.dashboard} replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

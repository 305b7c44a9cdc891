import type { User } from "@shared/auth";
import { render } from "@testing-library/react";
import { StrictMode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AppProviders } from "@/app/providers";
import { routes } from "@/app/router";

/** The whole app (real routes, guards and providers) at `path`, as main.tsx renders it. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
  return { router, ...view };
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: "user-1",
    email: "ada@acme.com",
    role: "admin",
    organizationId: "org-1",
    hasCompletedOnboarding: true,
    canApproveMembers: true,
    ...overrides,
  };
}

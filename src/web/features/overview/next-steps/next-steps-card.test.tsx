import type { NextSteps } from "@shared/next-steps";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { NextStepsCard } from "@/features/overview/next-steps/next-steps-card";
import { queryClient } from "@/lib/query-client";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { renderWithProviders } from "@/testing/render-with-providers";

const PATH = "/api/onboarding/next-steps";

function steps(done: Partial<Record<NextSteps["steps"][number]["id"], boolean>>): NextSteps {
  const ids = ["add_buddy", "publish_ad", "share_ad", "install_tracking", "connect_stripe"] as const;
  return { steps: ids.map((id) => ({ id, done: done[id] ?? false })) };
}

describe("Next steps card", () => {
  it("lists the five steps in order, each linking to where it is done, with what is done ticked", async () => {
    stubFetch({ [`GET ${PATH}`]: jsonResponse(200, steps({ add_buddy: true, connect_stripe: true })) });
    renderWithProviders(<NextStepsCard />);

    const card = within(await screen.findByTestId("next-steps"));
    expect(card.getByRole("heading", { name: "Next steps" })).toBeInTheDocument();
    expect(card.getByText(/2 of 5 done/)).toBeInTheDocument();
    const items = card.getAllByTestId("next-step");
    expect(items.map((item) => [item.dataset.step, item.dataset.done])).toEqual([
      ["add_buddy", "true"],
      ["publish_ad", "false"],
      ["share_ad", "false"],
      ["install_tracking", "false"],
      ["connect_stripe", "true"],
    ]);
    const links = items.map((item) => within(item).getByRole("link"));
    expect(links.map((link) => link.getAttribute("href"))).toEqual([
      "/dashboard/tools",
      "/dashboard/marketing",
      "/dashboard/tools",
      "/dashboard/settings?tab=install",
      "/dashboard/settings?tab=install",
    ]);
    expect(links.map((link) => link.getAttribute("aria-label"))).toEqual([
      "Add a Buddy, done",
      "Publish an ad, to do",
      "Share a partner's ad, to do",
      "Install tracking, to do",
      "Connect Stripe, done",
    ]);
    expect(links[1]).toHaveAccessibleName("Publish an ad, to do");
    expect(links[1]).toHaveAccessibleDescription("Your Buddies can share it once it is published.");
  });

  it("ticks a step when the data says so, and goes once every step is done", async () => {
    let answer = steps({ add_buddy: true, publish_ad: true, share_ad: true, install_tracking: true });
    stubFetch({ [`GET ${PATH}`]: () => jsonResponse(200, answer) });
    renderWithProviders(<NextStepsCard />);
    const last = await screen.findByText("Connect Stripe");
    expect(last.closest("[data-testid=next-step]")).toHaveAttribute("data-done", "false");

    answer = steps({
      add_buddy: true,
      publish_ad: true,
      share_ad: true,
      install_tracking: true,
      connect_stripe: true,
    });
    await queryClient.refetchQueries({ queryKey: [PATH] });
    await waitFor(() => expect(screen.queryByTestId("next-steps")).toBeNull());
  });

  it("shows nothing while loading or when the steps cannot be read", async () => {
    stubFetch({ [`GET ${PATH}`]: jsonResponse(500, {}) });
    renderWithProviders(<NextStepsCard />);
    expect(screen.queryByTestId("next-steps")).toBeNull();
    await waitFor(() => expect(queryClient.getQueryState([PATH])?.status).toBe("error"));
    expect(screen.queryByTestId("next-steps")).toBeNull();
  });
});

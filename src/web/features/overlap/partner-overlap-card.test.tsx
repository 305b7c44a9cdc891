import "fake-indexeddb/auto";
import type { OverlapPartner, OverlapRun } from "@shared/overlap";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { renderWithProviders } from "@/testing/render-with-providers";
import { saveList, saveRun } from "./overlap-store";
import { PartnerOverlapCard } from "./partner-overlap-card";

const partner = { id: "org-2", name: "Quillmail" };

function run(overrides: Partial<OverlapRun>): OverlapRun {
  return {
    id: "run-1",
    partner,
    started: true,
    population: "customers",
    partnerPopulation: "customers",
    status: "completed",
    level: "counts",
    count: 38,
    matches: null,
    createdAt: "2026-11-20T10:00:00.000Z",
    completedAt: "2026-11-20T11:00:00.000Z",
    expiresAt: "2026-11-27T10:00:00.000Z",
    ...overrides,
  };
}

function overlap(overrides: Partial<OverlapPartner> = {}): OverlapPartner {
  return {
    partner,
    level: "counts",
    effectiveLevel: "counts",
    consented: true,
    partnerPopulations: ["customers", "prospects"],
    nextRunAt: {},
    results: [],
    pending: [],
    ...overrides,
  };
}

function show(organizationId: string, data: OverlapPartner, routes: Parameters<typeof stubFetch>[0] = {}) {
  setToken("token");
  const fetchMock = stubFetch({ "GET /api/overlap/partners/org-2": jsonResponse(200, data), ...routes });
  renderWithProviders(<PartnerOverlapCard organizationId={organizationId} partnerId="org-2" />);
  return fetchMock;
}

describe("a Buddy's account overlap card (CONTRACT §11)", () => {
  it("says each result in words with its date, and 'fewer than 5' for a small count", async () => {
    show(
      "org-a",
      overlap({
        results: [
          run({}),
          run({ id: "run-2", population: "prospects", count: null, completedAt: "2026-11-19T11:00:00.000Z" }),
        ],
      }),
    );
    expect(await screen.findByTestId("overlap-sentence")).toHaveTextContent(
      "38 of your customers are Quillmail customers · Fewer than 5 of your prospects are Quillmail customers",
    );
    expect(screen.getByText("Compared on 11/20/2026")).toBeInTheDocument();
  });

  it("in Overlaps mode lists this side's own shared accounts from its stored order, with a CSV", async () => {
    await saveRun({
      runId: "run-o",
      organizationId: "org-b",
      scalar: null,
      order: ["c.com", "a.com", "b.com"],
    });
    show("org-b", overlap({ results: [run({ id: "run-o", level: "overlaps", count: 5, matches: [0, 2] })] }));
    const summary = await screen.findByText("Your customers that are Quillmail customers (2)");
    await userEvent.click(summary);
    const list = summary.closest("details") as HTMLElement;
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["b.com", "c.com"]);
    expect(within(list).getByRole("button", { name: "Download CSV" })).toBeInTheDocument();
  });

  it("asks for the list before comparing, and says when the next comparison may start", async () => {
    show("org-c", overlap());
    expect(await screen.findByText(/to compare them\.$/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Settings → Account overlap" })).toHaveAttribute(
      "href",
      "/dashboard/settings?tab=overlap",
    );
    expect(screen.getByRole("button", { name: "Compare lists" })).toBeDisabled();
  });

  it("waits 24 hours between two comparisons of the same lists", async () => {
    await saveList("org-d", "customers", ["a.com"]);
    show("org-d", overlap({ nextRunAt: { "customers:customers": "2026-11-30T10:00:00.000Z" } }));
    expect(await screen.findByText(/^These lists were compared in the last 24 hours/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Compare lists" })).toBeDisabled();
  });

  it("sets this side's level, and says when the partner's lower level is the one runs use", async () => {
    const fetchMock = show("org-e", overlap({ level: "overlaps", effectiveLevel: "counts" }), {
      "PUT /api/overlap/partners/org-2": jsonResponse(
        200,
        overlap({ level: "hidden", effectiveLevel: "hidden" }),
      ),
    });
    expect(await screen.findByText(/Runs use Counts, the lower of both sides\.$/)).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText("Your sharing with Quillmail"), "Hidden");
    expect(fetchCalls(fetchMock)).toContain("PUT /api/overlap/partners/org-2");
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(put?.[1]?.body).toBe(JSON.stringify({ level: "hidden" }));
  });
});

import "fake-indexeddb/auto";
import type { OverlapPartner, OverlapRun } from "@shared/overlap";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { renderWithProviders } from "@/testing/render-with-providers";
import { OverlapParticipant } from "./overlap-participant";

const partner = { id: "org-2", name: "Quillmail" };
const waiting: OverlapRun = {
  id: "run-1",
  partner,
  started: false,
  population: "customers",
  partnerPopulation: "prospects",
  status: "waiting",
  level: null,
  count: null,
  matches: null,
  createdAt: "2026-11-20T10:00:00.000Z",
  completedAt: null,
  expiresAt: "2026-11-27T10:00:00.000Z",
};
const partnerOverlap = (consented: boolean): OverlapPartner => ({
  partner,
  level: "counts",
  effectiveLevel: "counts",
  consented,
  partnerPopulations: ["prospects"],
  nextRunAt: {},
  results: [],
  pending: [waiting],
});

function show(routes: Parameters<typeof stubFetch>[0], retryMs?: number) {
  setToken("token");
  const fetchMock = stubFetch({
    "GET /api/overlap/runs?awaiting=true": jsonResponse(200, { runs: [waiting] }),
    ...routes,
  });
  renderWithProviders(<OverlapParticipant organizationId="org-1" retryMs={retryMs} />);
  return fetchMock;
}

describe("taking part in a partner's run (CONTRACT §11)", () => {
  it("asks once per partner, and records the consent on Take part", async () => {
    let consented = false;
    const fetchMock = show({
      "GET /api/overlap/partners/org-2": () => jsonResponse(200, partnerOverlap(consented)),
      "PUT /api/overlap/partners/org-2": () => {
        consented = true;
        return jsonResponse(200, partnerOverlap(true));
      },
      // Once consented, this browser takes its turn: the run's work, and no list here to answer with.
      "GET /api/overlap/runs/run-1": jsonResponse(200, {
        ...waiting,
        points: [],
        doubled: null,
        partnerPoints: null,
        stepLevel: "counts",
      }),
    });
    expect(
      await screen.findByText(/^Quillmail asks to compare its prospects with your customers\./),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Take part" }));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(put?.[1]?.body).toBe(JSON.stringify({ consent: true }));

    // The list is not in this browser: it says where to bring it.
    expect(
      await screen.findByText(
        /^Your customers list is not in this browser: import it in Settings → Account overlap/,
      ),
    ).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).toContain("GET /api/overlap/runs/run-1");
  });

  const RUN_WORK = "GET /api/overlap/runs/run-1";
  const unavailable = () => jsonResponse(503, { message: "Service temporarily unavailable" });
  const asked = (fetchMock: ReturnType<typeof stubFetch>) =>
    fetchCalls(fetchMock).filter((call) => call === RUN_WORK).length;

  it("tries a turn again when the server was unavailable, and never a turn a retry cannot mend", async () => {
    const answers = [unavailable, unavailable];
    const fetchMock = show(
      {
        "GET /api/overlap/partners/org-2": jsonResponse(200, partnerOverlap(true)),
        // Unavailable twice, then the run's work, with no list in this browser to answer with.
        [RUN_WORK]: () =>
          answers.shift()?.() ??
          jsonResponse(200, {
            ...waiting,
            points: [],
            doubled: null,
            partnerPoints: null,
            stepLevel: "counts",
          }),
      },
      50,
    );
    expect(await screen.findByText(/^Your customers list is not in this browser/)).toBeInTheDocument();
    expect(asked(fetchMock)).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked(fetchMock)).toBe(3);
  });

  it("stops trying after three turns the server could not take, saying why", async () => {
    const fetchMock = show(
      {
        "GET /api/overlap/partners/org-2": jsonResponse(200, partnerOverlap(true)),
        [RUN_WORK]: unavailable,
      },
      50,
    );
    expect(await screen.findByText("Service temporarily unavailable")).toBeInTheDocument();
    await waitFor(() => expect(asked(fetchMock)).toBe(3));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked(fetchMock)).toBe(3);
  });

  it("turns the partner Hidden on Never, and asks nothing more on Not now", async () => {
    const fetchMock = show({
      "GET /api/overlap/partners/org-2": jsonResponse(200, partnerOverlap(false)),
      "PUT /api/overlap/partners/org-2": jsonResponse(200, partnerOverlap(false)),
    });
    await userEvent.click(await screen.findByRole("button", { name: "Never with Quillmail" }));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(put?.[1]?.body).toBe(JSON.stringify({ level: "hidden" }));
    await userEvent.click(screen.getByRole("button", { name: "Not now" }));
    await waitFor(() => expect(screen.queryByTestId("overlap-participant")).not.toBeInTheDocument());
  });
});

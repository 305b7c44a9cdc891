import "fake-indexeddb/auto";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { renderWithProviders } from "@/testing/render-with-providers";
import { OverlapPanel } from "./overlap-panel";
import { readList } from "./overlap-store";

const settings = { discovery: false, populations: [] };
const domains = (count: number) =>
  Array.from({ length: count }, (_, i) => `https://www.Account${i}.com/x`).join("\n");

describe("Settings → Account overlap", () => {
  it("keeps a pasted list in this browser, normalised, and tells Buddy its size only", async () => {
    setToken("token");
    const fetchMock = stubFetch({
      "GET /api/overlap": jsonResponse(200, settings),
      "GET /api/overlap/runs": jsonResponse(200, { runs: [] }),
      "PUT /api/overlap/populations/customers": jsonResponse(200, settings),
      "DELETE /api/overlap/populations/customers": jsonResponse(200, settings),
    });
    renderWithProviders(<OverlapPanel organizationId="org-panel" />);
    const customers = await screen.findByTestId("overlap-list-customers");
    const field = within(customers).getByLabelText("Paste domains or a CSV");

    await userEvent.click(field);
    await userEvent.paste(domains(49));
    await userEvent.click(within(customers).getByRole("button", { name: "Save customers" }));
    expect(
      await within(customers).findByText("A list needs at least 50 distinct domains (found 49)"),
    ).toBeInTheDocument();

    await userEvent.clear(field);
    await userEvent.click(field);
    await userEvent.paste(`${domains(60)}\nnot-a-domain.invalidtld`);
    await userEvent.click(within(customers).getByRole("button", { name: "Save customers" }));
    expect(await within(customers).findByText(/^60 domains in this browser/)).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(put?.[1]?.body).toBe(JSON.stringify({ domainCount: 60 }));
    const stored = await readList("org-panel", "customers");
    expect(stored?.domains).toHaveLength(60);
    expect(stored?.domains[0]).toBe("account0.com");

    // Removed: Buddy is told first, then the browser forgets the list.
    await userEvent.click(within(customers).getByRole("button", { name: "Remove" }));
    expect(await within(customers).findByText("Not in this browser")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "DELETE")).toBe(true);
    expect(await readList("org-panel", "customers")).toBeUndefined();
  });
});

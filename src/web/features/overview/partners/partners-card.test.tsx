import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeRelationship } from "@/testing/fixtures";
import { renderWithProviders } from "@/testing/render-with-providers";
import { PartnersCard } from "./partners-card";
import { makePartner } from "./partners-fixture";

const PARTNERS = [
  makePartner({
    organizationId: "o2",
    name: "Mailfast",
    clicks: { sent: 12, received: 52 },
    leads: { sent: 3, received: 5 },
    revenue: {
      sent: [{ currency: "USD", value: 49.99 }],
      received: [
        { currency: "EUR", value: 1234.5 },
        { currency: "USD", value: 10 },
      ],
    },
  }),
  makePartner({ organizationId: "o7", name: "Stranger", clicks: { sent: 30, received: 0 } }),
  makePartner({ organizationId: "o3", name: "Chatly", clicks: { sent: 0, received: 1 } }),
];

function stub(partners: Response) {
  setToken("token");
  return stubFetch({
    "GET /api/metrics/partners?days=30": partners,
    "GET /api/relationships": jsonResponse(200, [
      makeRelationship({ id: "b1", targetOrg: { id: "o2", name: "Mailfast" } }),
      makeRelationship({ id: "b2", targetOrg: { id: "o3", name: "Chatly" } }),
      makeRelationship({ id: "b3", status: "deleted", targetOrg: { id: "o7", name: "Stranger" } }),
    ]),
  });
}

/** The wide layout: the rows' names, in order. */
function tableNames() {
  const table = screen.getByTestId("partners-table");
  return within(table)
    .getAllByTestId("partner-row")
    .map((row) => row.querySelector('[data-cell="name"]')?.textContent);
}

describe("the overview's Partners card", () => {
  it("shows each partner's figures both ways over 30 days, the name linking to its Buddy page", async () => {
    const fetchMock = stub(jsonResponse(200, { partners: PARTNERS }));
    renderWithProviders(<PartnersCard />);

    const table = await screen.findByTestId("partners-table");
    expect(fetchCalls(fetchMock)).toContain("GET /api/metrics/partners?days=30");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Partner", "Sent", "Received", "Balance", "Revenue", "Ad weight"]);
    const [mailfast, stranger] = within(table).getAllByTestId("partner-row") as HTMLElement[];
    expect(within(mailfast as HTMLElement).getByRole("link", { name: "Mailfast" })).toHaveAttribute(
      "href",
      "/dashboard/tools/b1",
    );
    const cell = (row: HTMLElement, name: string) => row.querySelector(`[data-cell="${name}"]`);
    expect(cell(mailfast as HTMLElement, "clicks-sent")).toHaveTextContent("12 clicks");
    expect(cell(mailfast as HTMLElement, "leads-sent")).toHaveTextContent("3 leads");
    expect(cell(mailfast as HTMLElement, "clicks-received")).toHaveTextContent("52 clicks");
    expect(cell(mailfast as HTMLElement, "leads-received")).toHaveTextContent("5 leads");
    // Mailfast sent more: Home is behind, in words and in a warning tone, not the giver's colour.
    expect(cell(mailfast as HTMLElement, "balance")).toHaveTextContent("Received 40 more clicks");
    expect(cell(mailfast as HTMLElement, "balance")?.closest("[data-tone]")).toHaveAttribute(
      "data-tone",
      "behind",
    );
    expect(cell(mailfast as HTMLElement, "balance")?.closest("td")).toHaveAttribute(
      "title",
      "Mailfast sent you 40 more clicks than you sent them",
    );
    expect(
      [...(cell(mailfast as HTMLElement, "revenue")?.querySelectorAll("li") ?? [])].map(
        (li) => li.textContent,
      ),
    ).toEqual(["sent —nonereceived €1,234.50", "sent $49.99received $10.00"]);
    expect(cell(mailfast as HTMLElement, "ad-weight")).toHaveTextContent("×2");
    expect(cell(mailfast as HTMLElement, "ad-weight")).toHaveAttribute(
      "title",
      "Mailfast's ads get 2× the usual share of your newsletter ad slots.",
    );

    // A deleted Buddy's page is gone: its name is not a link.
    expect(within(stranger as HTMLElement).queryByRole("link")).not.toBeInTheDocument();
    // Home sent Stranger more: ahead, the giver's tone.
    expect(cell(stranger as HTMLElement, "balance")).toHaveTextContent("Sent 30 more clicks");
    expect(cell(stranger as HTMLElement, "balance")?.closest("[data-tone]")).toHaveAttribute(
      "data-tone",
      "ahead",
    );
    expect(cell(stranger as HTMLElement, "revenue")?.querySelector("[data-empty-amount]")).toHaveTextContent(
      "—",
    );
    expect(cell(stranger as HTMLElement, "ad-weight")).toHaveTextContent("×0.25");

    // The narrow layout holds the same partners with each balance in words.
    const cards = screen.getByTestId("partner-cards");
    expect(within(cards).getAllByTestId("partner-row")).toHaveLength(3);
    expect(
      within(cards).getByText("You sent Stranger 30 more clicks than they sent you"),
    ).toBeInTheDocument();
    // No hover on a phone: each weight's sentence is written out.
    expect(
      within(cards)
        .getAllByTestId("ad-weight-sentence")
        .map((line) => line.textContent),
    ).toEqual([
      "Mailfast's ads get 2× the usual share of your newsletter ad slots.",
      "Stranger's ads get 0.25× the usual share of your newsletter ad slots.",
      "Chatly's ads get 1.1× the usual share of your newsletter ad slots.",
    ]);
  });

  it("sorts by a column's header, flipping on a second click, and says so with aria-sort", async () => {
    stub(jsonResponse(200, { partners: PARTNERS }));
    renderWithProviders(<PartnersCard />);
    const table = await screen.findByTestId("partners-table");
    expect(tableNames()).toEqual(["Mailfast", "Stranger", "Chatly"]);
    expect(
      within(table)
        .getAllByRole("columnheader")
        .filter((th) => th.hasAttribute("aria-sort")),
    ).toEqual([]);

    const balance = within(table).getByRole("columnheader", { name: "Balance" });
    await userEvent.click(within(balance).getByRole("button"));
    expect(balance).toHaveAttribute("aria-sort", "descending");
    expect(tableNames()).toEqual(["Mailfast", "Chatly", "Stranger"]);

    await userEvent.click(within(balance).getByRole("button"));
    expect(balance).toHaveAttribute("aria-sort", "ascending");
    expect(tableNames()).toEqual(["Stranger", "Chatly", "Mailfast"]);

    const partner = within(table).getByRole("columnheader", { name: "Partner" });
    await userEvent.click(within(partner).getByRole("button"));
    expect(partner).toHaveAttribute("aria-sort", "ascending");
    expect(balance).not.toHaveAttribute("aria-sort");
    expect(tableNames()).toEqual(["Chatly", "Mailfast", "Stranger"]);
  });

  it("sorts the phone's cards with the platform's own select, and flips them with the direction button", async () => {
    stub(jsonResponse(200, { partners: PARTNERS }));
    renderWithProviders(<PartnersCard />);
    const cards = await screen.findByTestId("partner-cards");
    const cardNames = () =>
      within(cards)
        .getAllByTestId("partner-row")
        .map((card) => card.querySelector('[data-cell="name"]')?.textContent);
    const sortBy = screen.getByRole("combobox", { name: "Sort by" });
    expect(sortBy.tagName).toBe("SELECT");
    expect(sortBy).toHaveValue("traffic");
    expect(cardNames()).toEqual(["Mailfast", "Stranger", "Chatly"]);

    await userEvent.selectOptions(sortBy, "Balance");
    expect(cardNames()).toEqual(["Mailfast", "Chatly", "Stranger"]);
    await userEvent.click(screen.getByRole("button", { name: "Descending, click for ascending" }));
    expect(cardNames()).toEqual(["Stranger", "Chatly", "Mailfast"]);

    await userEvent.selectOptions(sortBy, "Most traffic");
    expect(cardNames()).toEqual(["Mailfast", "Stranger", "Chatly"]);
    expect(screen.getByRole("button", { name: "Descending, click for ascending" })).toBeDisabled();
  });

  it("says there are no partners yet and where to add Buddies", async () => {
    stub(jsonResponse(200, { partners: [] }));
    renderWithProviders(<PartnersCard />);
    const empty = await screen.findByTestId("partners-empty");
    expect(empty).toHaveTextContent("No partners yet.");
    expect(within(empty).getByRole("link", { name: "Add Buddies" })).toHaveAttribute(
      "href",
      "/dashboard/tools",
    );
    expect(screen.queryByTestId("partners-table")).not.toBeInTheDocument();
  });

  it("shows a failed load with the server's message and tries again", async () => {
    let answers = 0;
    setToken("token");
    stubFetch({
      "GET /api/metrics/partners?days=30": () =>
        answers++ === 0
          ? jsonResponse(500, { message: "Internal Server Error" })
          : jsonResponse(200, { partners: PARTNERS }),
      "GET /api/relationships": jsonResponse(200, []),
    });
    renderWithProviders(<PartnersCard />);

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to fetch partners");
    expect(alert).toHaveTextContent("Internal Server Error");
    await userEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await screen.findByTestId("partners-table")).toBeInTheDocument();
    // Without an active Buddy among them, no name is a link.
    expect(within(screen.getByTestId("partners-table")).queryAllByRole("link")).toHaveLength(0);
  });
});

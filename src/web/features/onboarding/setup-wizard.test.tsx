import type { SuggestedTool, SuggestionsResponse } from "@shared/suggestions";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

const NEW_USER = makeUser({ organizationId: null, hasCompletedOnboarding: false, role: null });
const DESCRIPTION = "Collaboration software for remote teams.";

function tool(name: string, overrides: Partial<SuggestedTool> = {}): SuggestedTool {
  return {
    name,
    url: `https://${name.toLowerCase()}.com`,
    domain: `${name.toLowerCase()}.com`,
    description: `${name} description`,
    category: "email",
    categoryName: "Email",
    direct_integration: false,
    reason: `Why ${name}`,
    confidence: 0.7,
    isPlatformUser: false,
    organizationId: null,
    ...overrides,
  };
}

const SUGGESTIONS: SuggestionsResponse = {
  category: { slug: "collaboration", name: "Collaboration" },
  competitors: [tool("Rivalry", { confidence: 0.9 }), tool("Othercorp", { confidence: 0.9 })],
  categories: [
    {
      name: "Email",
      slug: "email",
      tools: [tool("Mailfast", { direct_integration: true, confidence: 0.9 })],
    },
    { name: "Chat", slug: "chat", tools: [tool("Chatly", { categoryName: "Chat" })] },
  ],
};

const SUGGESTIONS_CALL = `GET /api/ecosystem/suggestions?${new URLSearchParams({
  domain: "acme.com",
  name: "Acme Collaboration",
  description: DESCRIPTION,
  transactional: "sendgrid",
  marketing: "mailchimp",
})}`;

function body(fetchMock: ReturnType<typeof stubFetch>, call: string) {
  const index = fetchCalls(fetchMock).indexOf(call);
  return JSON.parse(String(fetchMock.mock.calls[index]?.[1]?.body));
}

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole("combobox", { name: label }));
  await userEvent.click(await screen.findByRole("option", { name: option }));
}

/** Fills step 1 through the autofill: the site name is cut to 25 characters, last word dropped. */
async function fillCompanyStep() {
  await userEvent.type(screen.getByLabelText("Website"), "https://www.acme.com/about");
  await userEvent.tab();
  await waitFor(() => expect(screen.getByLabelText("Company Name")).toHaveValue("Acme Collaboration"));
  expect(screen.getByLabelText("Website")).toHaveValue("www.acme.com/about");
  expect(screen.getByLabelText("Description")).toHaveValue(DESCRIPTION);
  await choose("Transactional Email Provider", "SendGrid");
  await choose("Marketing Email Provider", "Mailchimp");
}

describe("/setup wizard", () => {
  it("walks the three steps and posts the onboarding payload", async () => {
    setToken("token");
    let onboarded = false;
    const fetchMock = stubFetch({
      "GET /api/me": () =>
        jsonResponse(200, { user: onboarded ? makeUser({ hasCompletedOnboarding: true }) : NEW_USER }),
      "GET /api/onboarding/website": jsonResponse(200, { website: null }),
      "GET /api/metadata?domain=www.acme.com": jsonResponse(200, {
        siteName: "Acme Collaboration Software Inc",
        description: DESCRIPTION,
      }),
      [SUGGESTIONS_CALL]: jsonResponse(200, SUGGESTIONS),
      "POST /api/onboarding": () => {
        onboarded = true;
        return jsonResponse(201, { user: makeUser(), message: "Onboarding completed" });
      },
    });
    const { router } = renderApp("/setup");

    expect(await screen.findByRole("heading", { name: "Tell us about your company" })).toBeInTheDocument();
    expect(screen.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "1");
    expect(screen.getByRole("progressbar")).toHaveAttribute("aria-valuemax", "3");
    expect(screen.getByLabelText("Company Name")).toHaveAttribute("maxLength", "25");

    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Website is required")).toBeInTheDocument();
    expect(screen.getByText("Company name is required")).toBeInTheDocument();
    expect(screen.getByText("Please provide a brief description")).toBeInTheDocument();
    expect(screen.getByText("Transactional email provider is required")).toBeInTheDocument();
    expect(screen.getByText("Marketing email provider is required")).toBeInTheDocument();

    await fillCompanyStep();
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));

    // Step 2: competitors as toggle chips, fetched without the session's bearer token.
    expect(
      await screen.findByRole("heading", {
        name: "Who are your competitors? We'll block them from your ads",
      }),
    ).toBeInTheDocument();
    const competitors = await screen.findByRole("group", { name: "Suggested competitors" });
    const suggestionsInit = fetchMock.mock.calls[fetchCalls(fetchMock).indexOf(SUGGESTIONS_CALL)]?.[1];
    expect(new Headers(suggestionsInit?.headers).has("Authorization")).toBe(false);
    const rivalry = within(competitors).getByRole("button", { name: "Rivalry" });
    expect(rivalry).toHaveAttribute("title", "Why Rivalry");
    expect(within(competitors).getByRole("link", { name: "Visit Rivalry" })).toHaveAttribute(
      "href",
      "https://rivalry.com",
    );
    await userEvent.click(rivalry);
    expect(rivalry).toHaveAttribute("aria-pressed", "true");
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));

    // Step 3: tools grouped by category name.
    expect(
      await screen.findByRole("heading", { name: "Select complementary tools to be your Buddies" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Email" })).toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Email" })).getByText("Integrates")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Mailfast" }));

    // Previous keeps the choices made so far.
    await userEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(screen.getByRole("button", { name: "Rivalry" })).toHaveAttribute("aria-pressed", "true");
    await userEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(screen.getByLabelText("Company Name")).toHaveValue("Acme Collaboration");
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    await userEvent.click(await screen.findByRole("button", { name: "Continue" }));
    await userEvent.click(await screen.findByRole("button", { name: "Complete Setup" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(await screen.findByText("Onboarding completed successfully")).toBeInTheDocument();
    expect(body(fetchMock, "POST /api/onboarding")).toEqual({
      companyName: "Acme Collaboration",
      website: "https://www.acme.com/about",
      description: DESCRIPTION,
      transactionalEmailProvider: "sendgrid",
      marketingEmailProvider: "mailchimp",
      selectedCompetitors: ["Rivalry"],
      selectedComplements: ["Mailfast"],
      suggestions: SUGGESTIONS,
    });
  });

  it("fills only empty fields from the site's metadata", async () => {
    setToken("token");
    stubFetch({
      "GET /api/me": jsonResponse(200, { user: NEW_USER }),
      "GET /api/onboarding/website": jsonResponse(200, { website: null }),
      "GET /api/metadata?domain=acme.com": jsonResponse(200, {
        siteName: "Acme",
        description: "A description from the site.",
      }),
    });
    renderApp("/setup");

    await userEvent.type(await screen.findByLabelText("Company Name"), "My Acme");
    await userEvent.type(screen.getByLabelText("Website"), "acme.com");
    await userEvent.tab();

    await waitFor(() =>
      expect(screen.getByLabelText("Description")).toHaveValue("A description from the site."),
    );
    expect(screen.getByLabelText("Company Name")).toHaveValue("My Acme");
  });

  it("shows a friendly line when there are no suggestions, and keeps the form on a failed submit", async () => {
    setToken("token");
    let fail: (response: Response) => void = () => {};
    stubFetch({
      "GET /api/me": jsonResponse(200, { user: NEW_USER }),
      "GET /api/onboarding/website": jsonResponse(200, { website: null }),
      "GET /api/metadata?domain=www.acme.com": jsonResponse(200, {
        siteName: "Acme Collaboration Software Inc",
        description: DESCRIPTION,
      }),
      [SUGGESTIONS_CALL]: jsonResponse(200, { category: null, competitors: [], categories: [] }),
      "POST /api/onboarding": () =>
        new Promise<Response>((resolve) => {
          fail = resolve;
        }),
    });
    renderApp("/setup");

    await screen.findByLabelText("Website");
    await fillCompanyStep();
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText(/couldn't find competitors to suggest/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText(/couldn't find tools to suggest/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Complete Setup" }));
    const busy = await screen.findByRole("button", { name: "Setting up your account" });
    expect(busy).toBeDisabled();
    expect(screen.getByRole("button", { name: "Previous" })).toBeDisabled();
    fail(jsonResponse(500, {}));

    expect(await screen.findByText("Failed to complete onboarding")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Complete Setup" })).toBeEnabled();
  });

  it("shows the pending-approval notice when the company already exists on the platform", async () => {
    setToken("token");
    stubFetch({
      "GET /api/me": jsonResponse(200, { user: NEW_USER }),
      "GET /api/onboarding/website": jsonResponse(200, { website: null }),
      "GET /api/metadata?domain=www.acme.com": jsonResponse(200, {
        siteName: "Acme Collaboration Software Inc",
        description: DESCRIPTION,
      }),
      [SUGGESTIONS_CALL]: jsonResponse(200, SUGGESTIONS),
      "POST /api/onboarding": jsonResponse(202, {
        user: { ...NEW_USER, pendingOrganization: { name: "Acme" } },
        message: "Your request to join Acme has been sent to its admins.",
      }),
    });
    const { router } = renderApp("/setup");

    await screen.findByLabelText("Website");
    await fillCompanyStep();
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    await userEvent.click(await screen.findByRole("button", { name: "Continue" }));
    await userEvent.click(await screen.findByRole("button", { name: "Complete Setup" }));

    expect(
      await screen.findByText("Your request to join Acme is waiting for an admin's approval."),
    ).toBeInTheDocument();
    expect(screen.getByText("Your request to join Acme has been sent to its admins.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Logout" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/setup");
  });

  it("prefills the website from the work address and autofills from it; step 3 marks companies on Buddy", async () => {
    setToken("token");
    const withOnBuddy: SuggestionsResponse = {
      ...SUGGESTIONS,
      categories: [
        {
          name: "Chat",
          slug: "chat",
          tools: [
            tool("Quillchat", { categoryName: "Chat", isPlatformUser: true, organizationId: "org-quill" }),
            tool("Chatly", { categoryName: "Chat" }),
          ],
        },
      ],
    };
    const fetchMock = stubFetch({
      "GET /api/me": jsonResponse(200, { user: NEW_USER }),
      "GET /api/onboarding/website": jsonResponse(200, { website: "acme.com" }),
      "GET /api/metadata?domain=acme.com": jsonResponse(200, {
        siteName: "Acme Collaboration",
        description: DESCRIPTION,
      }),
      [SUGGESTIONS_CALL]: jsonResponse(200, withOnBuddy),
    });
    renderApp("/setup");

    await waitFor(() => expect(screen.getByLabelText("Website")).toHaveValue("acme.com"));
    await waitFor(() => expect(screen.getByLabelText("Company Name")).toHaveValue("Acme Collaboration"));
    expect(screen.getByLabelText("Description")).toHaveValue(DESCRIPTION);
    await choose("Transactional Email Provider", "SendGrid");
    await choose("Marketing Email Provider", "Mailchimp");
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    await userEvent.click(await screen.findByRole("button", { name: "Continue" }));

    const chat = await screen.findByRole("group", { name: "Chat" });
    const chips = within(chat).getAllByTestId("suggestion-chip");
    expect(within(chips[0] as HTMLElement).getByText("On Buddy")).toBeInTheDocument();
    expect(within(chips[0] as HTMLElement).getByRole("button", { name: "Quillchat" })).toBeInTheDocument();
    expect(within(chips[1] as HTMLElement).queryByText("On Buddy")).toBeNull();
    expect(screen.getByTestId("on-buddy-note")).toHaveTextContent(
      "Companies marked On Buddy are already here",
    );
    expect(fetchCalls(fetchMock)).toContain("GET /api/onboarding/website");
  });

  it("never overwrites a website the user typed before the suggestion arrived", async () => {
    setToken("token");
    let answer: (response: Response) => void = () => {};
    stubFetch({
      "GET /api/me": jsonResponse(200, { user: NEW_USER }),
      "GET /api/onboarding/website": () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
      "GET /api/metadata?domain=mine.io": jsonResponse(200, { siteName: "Mine", description: DESCRIPTION }),
    });
    renderApp("/setup");

    await userEvent.type(await screen.findByLabelText("Website"), "mine.io");
    answer(jsonResponse(200, { website: "acme.com" }));
    await waitFor(() => expect(screen.getByLabelText("Website")).toHaveValue("mine.io"));
    await userEvent.tab();
    await waitFor(() => expect(screen.getByLabelText("Company Name")).toHaveValue("Mine"));
    expect(screen.getByLabelText("Website")).toHaveValue("mine.io");
  });

  it("leaves the website empty when the address is free mail", async () => {
    setToken("token");
    const fetchMock = stubFetch({
      "GET /api/me": jsonResponse(200, { user: NEW_USER }),
      "GET /api/onboarding/website": jsonResponse(200, { website: null }),
    });
    renderApp("/setup");
    const website = await screen.findByLabelText("Website");
    await waitFor(() => expect(fetchCalls(fetchMock)).toContain("GET /api/onboarding/website"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(website).toHaveValue("");
    expect(screen.getByLabelText("Company Name")).toHaveValue("");
  });
});

import type { Collateral, GeneratedCollateral } from "@shared/collateral";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { CollateralDialog } from "@/features/collateral/collateral-dialog";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeCollateral } from "@/testing/fixtures";
import { renderWithProviders } from "@/testing/render-with-providers";

const GENERATED: GeneratedCollateral = {
  type: "email_cta",
  name: "Meet Acme",
  description: "Collaboration software for busy teams.",
  ctaText: "Try Acme",
  ctaUrl: "https://acme.com/?utm_source=acme&utm_medium=email&utm_campaign=buddy",
  imageUrl: "https://acme.com/og.png",
  status: "draft",
};

function renderDialog(collateral: Collateral | null = null) {
  const onClose = vi.fn();
  renderWithProviders(<CollateralDialog collateral={collateral} onClose={onClose} />);
  return { onClose, dialog: within(screen.getByRole("dialog")) };
}

function counters() {
  return screen.getAllByTestId("character-count").map((element) => element.textContent);
}

function lastBody(fetchMock: ReturnType<typeof stubFetch>, call: string) {
  const index = fetchCalls(fetchMock).lastIndexOf(call);
  return JSON.parse(String(fetchMock.mock.calls[index]?.[1]?.body));
}

async function fillRequired(dialog: ReturnType<typeof within>) {
  await userEvent.type(dialog.getByLabelText("Title"), "Try Acme free");
  await userEvent.type(dialog.getByLabelText("Description"), "Collaboration for busy teams.");
  await userEvent.type(dialog.getByLabelText("Call to Action Text"), "Start now");
  await userEvent.type(dialog.getByLabelText("Call to Action URL"), "https://acme.com/signup");
}

describe("New Collateral dialog", () => {
  it("counts characters live and stops each field at its limit", async () => {
    stubFetch({});
    const { dialog } = renderDialog();
    expect(dialog.getByRole("heading", { name: "New Collateral" })).toBeInTheDocument();
    expect(counters()).toEqual(["0/25", "0/100", "0/25"]);

    await userEvent.type(dialog.getByLabelText("Title"), "Hello");
    expect(counters()[0]).toBe("5/25");
    await userEvent.type(dialog.getByLabelText("Title"), "x".repeat(30));
    expect(dialog.getByLabelText("Title")).toHaveValue(`Hello${"x".repeat(20)}`);
    expect(counters()[0]).toBe("25/25");

    await userEvent.type(dialog.getByLabelText("Description"), "d".repeat(110));
    await userEvent.type(dialog.getByLabelText("Call to Action Text"), "c".repeat(30));
    expect(counters()).toEqual(["25/25", "100/100", "25/25"]);
    expect(dialog.getByLabelText("Call to Action URL")).toHaveAttribute("type", "url");
    expect(dialog.getByLabelText("Image URL")).toHaveAttribute("type", "url");
  });

  it("requires title, description, call-to-action text and URL before sending anything", async () => {
    const fetchMock = stubFetch({});
    const { dialog } = renderDialog();
    await userEvent.click(dialog.getByRole("button", { name: "Create" }));

    expect(await dialog.findByText("Title is required")).toBeInTheDocument();
    expect(dialog.getByText("Description is required")).toBeInTheDocument();
    expect(dialog.getByText("Call to action text is required")).toBeInTheDocument();
    expect(dialog.getByText("Call to action URL must be a valid http(s) URL")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("previews the image, completes a bare address on blur and falls back to a placeholder", async () => {
    stubFetch({});
    const { dialog } = renderDialog();
    const preview = within(dialog.getByTestId("image-preview"));
    expect(preview.getByTestId("collateral-image-placeholder")).toBeInTheDocument();

    await userEvent.type(dialog.getByLabelText("Image URL"), "example.com/a.png");
    expect(preview.getByTestId("collateral-image-placeholder")).toBeInTheDocument();
    await userEvent.tab();
    expect(dialog.getByLabelText("Image URL")).toHaveValue("https://example.com/a.png");
    const image = preview.getByRole("img", { name: "Image preview" });
    expect(image).toHaveAttribute("src", "https://example.com/a.png");

    fireEvent.error(image);
    expect(preview.queryByRole("img")).not.toBeInTheDocument();
    expect(preview.getByTestId("collateral-image-placeholder")).toBeInTheDocument();
  });

  it("creates a draft email call to action and closes", async () => {
    const fetchMock = stubFetch({
      "POST /api/marketing/collateral": jsonResponse(201, makeCollateral({ status: "draft" })),
    });
    const { dialog, onClose } = renderDialog();
    expect(dialog.queryByRole("combobox", { name: "Status" })).not.toBeInTheDocument();
    await fillRequired(dialog);
    await userEvent.click(dialog.getByRole("button", { name: "Create" }));

    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(lastBody(fetchMock, "POST /api/marketing/collateral")).toEqual({
      type: "email_cta",
      name: "Try Acme free",
      description: "Collaboration for busy teams.",
      ctaText: "Start now",
      ctaUrl: "https://acme.com/signup",
      imageUrl: "",
      status: "draft",
    });
  });

  it("only logs a failed submit and stays open for another try (SPEC §8)", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    stubFetch({ "POST /api/marketing/collateral": jsonResponse(500, { message: "Internal Server Error" }) });
    const { dialog, onClose } = renderDialog();
    await fillRequired(dialog);
    await userEvent.click(dialog.getByRole("button", { name: "Create" }));

    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(dialog.getByRole("button", { name: "Create" })).toBeEnabled();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.queryByText("Internal Server Error")).not.toBeInTheDocument();
  });

  it("fills the form with AI and cannot be closed while generating", async () => {
    let answer: (response: Response) => void = () => {};
    stubFetch({
      "POST /api/marketing/generate": () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    const { dialog, onClose } = renderDialog();

    await userEvent.click(dialog.getByRole("button", { name: "Generate with AI" }));
    expect(dialog.getByRole("button", { name: "Generating..." })).toBeDisabled();

    await userEvent.keyboard("{Escape}");
    fireEvent.pointerDown(document.querySelector("[data-slot=dialog-overlay]") as Element);
    await userEvent.click(dialog.getByRole("button", { name: "Close" }));
    expect(dialog.getByRole("button", { name: "Cancel" })).toBeDisabled();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole("dialog")).toBeInTheDocument();

    answer(jsonResponse(200, GENERATED));
    expect(await dialog.findByRole("button", { name: "Generate with AI" })).toBeEnabled();
    expect(dialog.getByLabelText("Title")).toHaveValue("Meet Acme");
    expect(dialog.getByLabelText("Description")).toHaveValue(GENERATED.description);
    expect(dialog.getByLabelText("Call to Action Text")).toHaveValue("Try Acme");
    expect(dialog.getByLabelText("Call to Action URL")).toHaveValue(GENERATED.ctaUrl);
    expect(dialog.getByLabelText("Image URL")).toHaveValue("https://acme.com/og.png");

    await userEvent.click(dialog.getByRole("button", { name: "Cancel" }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("says 'AI Error :(' when generation fails, and checks limits on what it filled in", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const fetchMock = stubFetch({
      "POST /api/marketing/generate": jsonResponse(502, { message: "AI down" }),
    });
    const { dialog } = renderDialog();

    await userEvent.click(dialog.getByRole("button", { name: "Generate with AI" }));
    expect(await dialog.findByRole("button", { name: "AI Error :(" })).toBeEnabled();

    stubFetch({
      "POST /api/marketing/generate": jsonResponse(200, {
        ...GENERATED,
        name: "A title far longer than allowed",
      }),
    });
    await userEvent.click(dialog.getByRole("button", { name: "AI Error :(" }));
    expect(await dialog.findByRole("button", { name: "Generate with AI" })).toBeInTheDocument();
    expect(counters()[0]).toBe("31/25");
    await userEvent.click(dialog.getByRole("button", { name: "Create" }));
    expect(await dialog.findByText("Title must be at most 25 characters")).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).toEqual(["POST /api/marketing/generate"]);
  });

  it("edits an item, status included", async () => {
    const item = makeCollateral({ id: "col-9", imageUrl: "https://acme.com/og.png" });
    const fetchMock = stubFetch({
      "PATCH /api/marketing/collateral/col-9": jsonResponse(200, { ...item, status: "archived" }),
    });
    const { dialog, onClose } = renderDialog(item);
    expect(dialog.getByRole("heading", { name: "Edit Collateral" })).toBeInTheDocument();
    expect(dialog.getByLabelText("Title")).toHaveValue(item.name);
    expect(counters()[0]).toBe(`${item.name.length}/25`);

    await userEvent.click(dialog.getByRole("combobox", { name: "Status" }));
    await userEvent.click(await screen.findByRole("option", { name: "Archived" }));
    await userEvent.click(dialog.getByRole("button", { name: "Update" }));

    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(lastBody(fetchMock, "PATCH /api/marketing/collateral/col-9")).toEqual({
      type: "email_cta",
      name: item.name,
      description: item.description,
      ctaText: item.ctaText,
      ctaUrl: item.ctaUrl,
      imageUrl: "https://acme.com/og.png",
      status: "archived",
    });
  });

  it("says a new ad is a draft Buddies cannot see until it is published, and says it again once saved", async () => {
    stubFetch({
      "POST /api/marketing/collateral": jsonResponse(201, makeCollateral({ status: "draft" })),
    });
    const { dialog, onClose } = renderDialog();
    expect(dialog.getByTestId("draft-note")).toHaveTextContent(
      "This ad is a draft: Buddies see it once it is published. Publish it from its card once it is ready.",
    );
    await fillRequired(dialog);
    await userEvent.click(dialog.getByRole("button", { name: "Create" }));
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(
      await screen.findByText("Saved as a draft: Buddies see it once it is published."),
    ).toBeInTheDocument();
  });

  it("shows the draft note only while the status is draft, and no draft notice for a published save", async () => {
    const item = makeCollateral({ id: "col-7", status: "draft" });
    stubFetch({
      "PATCH /api/marketing/collateral/col-7": jsonResponse(200, { ...item, status: "active" }),
    });
    const { dialog, onClose } = renderDialog(item);
    expect(dialog.getByTestId("draft-note")).toHaveTextContent(
      /^This ad is a draft: Buddies see it once it is published\.$/,
    );
    await userEvent.click(dialog.getByRole("combobox", { name: "Status" }));
    await userEvent.click(await screen.findByRole("option", { name: "Active" }));
    expect(dialog.queryByTestId("draft-note")).toBeNull();
    await userEvent.click(dialog.getByRole("button", { name: "Update" }));
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(screen.queryByText(/Saved as a draft/)).toBeNull();
  });
});

import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { renderApp } from "@/testing/render-app";

describe("/reset-password", () => {
  it("requires the confirmation to match", async () => {
    const fetchMock = stubFetch({});
    renderApp("/reset-password?token=t1");

    await userEvent.type(await screen.findByLabelText("New Password"), "longenough");
    await userEvent.type(screen.getByLabelText("Confirm Password"), "different1");
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));

    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("posts the token and password, then returns to /auth", async () => {
    const fetchMock = stubFetch({ "POST /api/reset-password": jsonResponse(200, { message: "ok" }) });
    const { router } = renderApp("/reset-password?token=t1");

    await userEvent.type(await screen.findByLabelText("New Password"), "longenough");
    await userEvent.type(screen.getByLabelText("Confirm Password"), "longenough");
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));

    expect(await screen.findByText("Password reset successfully")).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(JSON.stringify({ token: "t1", password: "longenough" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth"), { timeout: 3000 });
  });

  it("says so when the link has no token", async () => {
    renderApp("/reset-password");
    expect(await screen.findByText("No reset token found")).toBeInTheDocument();
  });
});

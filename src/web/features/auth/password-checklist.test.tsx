import { PASSWORD_RULES } from "@shared/auth";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { CredentialsForm } from "@/features/auth/credentials-form";
import { PasswordChecklist } from "@/features/auth/password-checklist";

function metRules(): Record<string, string | null> {
  const items = within(screen.getByTestId("password-checklist")).getAllByRole("listitem");
  return Object.fromEntries(items.map((item) => [item.dataset.rule, item.getAttribute("data-met")]));
}

describe("PasswordChecklist", () => {
  it("lists every shared rule, all red for an empty password", () => {
    render(<PasswordChecklist password="" />);
    const items = screen.getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual(
      PASSWORD_RULES.map((rule) => `Requirement not met:${rule.label}`),
    );
    for (const item of items) expect(item).toHaveClass("text-destructive");
  });

  it("turns each rule green once it is met", () => {
    const { rerender } = render(<PasswordChecklist password="abc" />);
    expect(metRules()).toEqual({
      length: "false",
      uppercase: "false",
      lowercase: "true",
      number: "false",
      special: "false",
    });

    rerender(<PasswordChecklist password="Abcdefg1!" />);
    expect(Object.values(metRules())).toEqual(["true", "true", "true", "true", "true"]);
    for (const item of screen.getAllByRole("listitem")) expect(item).toHaveClass("text-success");
  });
});

describe("register form", () => {
  it("updates the checklist as the user types", async () => {
    const user = userEvent.setup();
    // Standalone, as the sign-in page runs it: no router, no query cache.
    render(<CredentialsForm mode="register" notify={() => {}} />);

    const password = screen.getByLabelText("Password");
    await user.type(password, "a");
    expect(metRules()).toMatchObject({ lowercase: "true", uppercase: "false", length: "false" });

    await user.type(password, "B3$defgh");
    expect(Object.values(metRules()).every((met) => met === "true")).toBe(true);
  });

  it("shows the shared schema's messages under the fields", async () => {
    const user = userEvent.setup();
    // Standalone, as the sign-in page runs it: no router, no query cache.
    render(<CredentialsForm mode="register" notify={() => {}} />);

    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.type(screen.getByLabelText("Password"), "short");
    await user.click(screen.getByRole("button", { name: "Sign up" }));

    expect(await screen.findByText("Invalid email address")).toBeInTheDocument();
    expect(screen.getByText("Password must be at least 8 characters")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
  });
});

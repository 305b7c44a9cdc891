import { describe, expect, it } from "vitest";
import { authRequestSchema, PASSWORD_RULES, registerSchema, resetPasswordSchema } from "./auth";

describe("password rules", () => {
  it("reports every unmet rule with its SPEC message, in order", () => {
    const result = registerSchema.safeParse({ email: "a@b.co", password: "" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(PASSWORD_RULES.map((r) => r.message));
  });

  it("accepts a password meeting every rule", () => {
    expect(registerSchema.safeParse({ email: "a@b.co", password: "Abcdef1!" }).success).toBe(true);
  });

  it("applies only the length rule on reset", () => {
    expect(resetPasswordSchema.safeParse({ token: "t", password: "abcdefgh" }).success).toBe(true);
    expect(resetPasswordSchema.safeParse({ token: "t", password: "abc" }).error?.issues[0]?.message).toBe(
      "Password must be at least 8 characters",
    );
  });

  it("picks the login or sign-up rules by mode", () => {
    expect(authRequestSchema.safeParse({ email: "a@b.co", password: "x", mode: "login" }).success).toBe(true);
    expect(authRequestSchema.safeParse({ email: "a@b.co", password: "x", mode: "signup" }).success).toBe(
      false,
    );
  });
});

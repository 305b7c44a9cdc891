import type {
  ForgotPasswordInput,
  MessageResponse,
  ResetPasswordInput,
  SessionResponse,
  VerifyEmailInput,
  VerifyEmailResponse,
} from "@shared/auth";
import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { toast } from "@/components/ui/toast";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { clearSession, setToken, useStartSession } from "@/lib/session";
import { heldSignupSecret } from "@/lib/signup-secret";

export function useForgotPassword() {
  return useMutation({
    mutationFn: (input: ForgotPasswordInput) =>
      apiRequest<MessageResponse>("/api/forgot-password", { method: "POST", body: input }),
    onError: (error) => toast.error(errorMessage(error, "Failed to send reset email")),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (input: ResetPasswordInput) =>
      apiRequest<MessageResponse>("/api/reset-password", { method: "POST", body: input }),
    onSuccess: () => toast.success("Password reset successfully"),
    onError: (error) => toast.error(errorMessage(error, "Failed to reset password")),
  });
}

const verificationsInFlight = new Map<string, Promise<VerifyEmailResponse>>();

/**
 * Verification tokens are single-use (CONTRACT §3), so a token is POSTed once even when React
 * StrictMode runs the effect twice: the second run joins the first request instead of racing it.
 */
function verifyEmailOnce(body: VerifyEmailInput): Promise<VerifyEmailResponse> {
  const inFlight = verificationsInFlight.get(body.token);
  if (inFlight) return inFlight;
  const request = apiRequest<VerifyEmailResponse>("/api/verify-email", { method: "POST", body });
  verificationsInFlight.set(body.token, request);
  const forget = () => verificationsInFlight.delete(body.token);
  request.then(forget, forget);
  return request;
}

/**
 * SPEC §4 Verify e-mail, with CONTRACT §3's sign-up secret:
 * - `pending` while the request runs;
 * - `confirm` in a browser that holds no sign-up secret (the mail opened elsewhere, or by a
 *   scanner that runs the page): nothing is sent until the person asks, since verifying from
 *   here voids the password chosen at sign-up;
 * - `choose-password` after such a verification: signed in, with a token to choose a password;
 * - `error` with the text to show.
 * A verification with the secret signs in and goes home, as the SPEC says.
 */
export type VerificationStep =
  | { step: "pending" }
  | { step: "confirm" }
  | { step: "choose-password"; session: SessionResponse; setPasswordToken: string }
  | { step: "error"; error: string };

export function useEmailVerification(token: string | null): VerificationStep & { confirm: () => void } {
  const startSession = useStartSession();
  // Read once: verifying clears local storage, and the secret with it.
  const [signupSecret] = useState(heldSignupSecret);
  const [confirmed, setConfirmed] = useState(signupSecret !== null);
  const [outcome, setOutcome] = useState<VerificationStep | null>(null);

  useEffect(() => {
    if (!token || !confirmed) return;
    // Aborted = this effect run was superseded or unmounted: its outcome is ignored. The request
    // itself is not cancelled, since the server may already have consumed the token.
    const run = new AbortController();
    verifyEmailOnce(signupSecret ? { token, signupSecret } : { token }).then(
      (session) => {
        if (run.signal.aborted) return;
        clearSession();
        toast.success("Email verified successfully");
        const { setPasswordToken, ...signedIn } = session;
        if (setPasswordToken === null) {
          startSession(signedIn);
          return;
        }
        // Signed in already; home comes after the password (or the choice to set it later).
        setToken(signedIn.token);
        setOutcome({ step: "choose-password", session: signedIn, setPasswordToken });
      },
      (failure: unknown) => {
        if (run.signal.aborted) return;
        setOutcome({ step: "error", error: errorMessage(failure, "Invalid or expired verification token") });
      },
    );
    return () => run.abort();
  }, [token, confirmed, signupSecret, startSession]);

  const confirm = useCallback(() => setConfirmed(true), []);
  if (!token) return { step: "error", error: "No verification token found", confirm };
  if (outcome) return { ...outcome, confirm };
  return { step: confirmed ? "pending" : "confirm", confirm };
}

/**
 * After a verification that voided the sign-up's password: set one with the reset token it
 * answered (which ends every session), then sign in with it and go home.
 */
export function useChoosePassword(email: string, setPasswordToken: string) {
  const startSession = useStartSession();
  return useMutation({
    mutationFn: async (password: string) => {
      const reset: ResetPasswordInput = { token: setPasswordToken, password };
      await apiRequest<MessageResponse>("/api/reset-password", { method: "POST", body: reset });
      return apiRequest<SessionResponse>("/api/auth", {
        method: "POST",
        body: { email, password, mode: "login" },
      });
    },
    onSuccess: (session) => {
      clearSession();
      toast.success("Password saved");
      startSession(session);
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to save password")),
  });
}

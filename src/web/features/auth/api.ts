import type {
  ForgotPasswordInput,
  MessageResponse,
  ResetPasswordInput,
  SessionResponse,
  VerifyEmailInput,
} from "@shared/auth";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { clearSession, useStartSession } from "@/lib/session";

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

const verificationsInFlight = new Map<string, Promise<SessionResponse>>();

/**
 * Verification tokens are single-use (CONTRACT §3), so a token is POSTed once even when React
 * StrictMode runs the effect twice: the second run joins the first request instead of racing it.
 */
function verifyEmailOnce(token: string): Promise<SessionResponse> {
  const inFlight = verificationsInFlight.get(token);
  if (inFlight) return inFlight;
  const body: VerifyEmailInput = { token };
  const request = apiRequest<SessionResponse>("/api/verify-email", { method: "POST", body });
  verificationsInFlight.set(token, request);
  const forget = () => verificationsInFlight.delete(token);
  request.then(forget, forget);
  return request;
}

/** SPEC §4 Verify e-mail: runs on mount; returns the error to show, or null while pending. */
export function useEmailVerification(token: string | null): { error: string | null } {
  const startSession = useStartSession();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!token) return;
    // Aborted = this effect run was superseded or unmounted: its outcome is ignored. The request
    // itself is not cancelled, since the server may already have consumed the token.
    const run = new AbortController();
    verifyEmailOnce(token).then(
      (session) => {
        if (run.signal.aborted) return;
        clearSession();
        toast.success("Email verified successfully");
        startSession(session);
      },
      (failure: unknown) => {
        if (run.signal.aborted) return;
        setError(errorMessage(failure, "Invalid or expired verification token"));
      },
    );
    return () => run.abort();
  }, [token, startSession]);

  return { error: token ? error : "No verification token found" };
}

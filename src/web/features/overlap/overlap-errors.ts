import { errorMessage } from "@/lib/api-client";

/** A step this browser cannot take, in words for the admin (the list or the run's key is elsewhere). */
export class OverlapStepError extends Error {}

/** The admin's notice for a failed step: the step's own words, else the server's, else the fallback. */
export function overlapErrorMessage(error: unknown, fallback: string): string {
  return error instanceof OverlapStepError ? error.message : errorMessage(error, fallback);
}

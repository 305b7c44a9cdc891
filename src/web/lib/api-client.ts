import type { ErrorBody } from "@shared/http";
import { clearSession, getToken } from "@/lib/token-store";

/** A non-OK answer from the API: `message` is the server's text, else the SPEC §8 default. */
export class ApiError extends Error {
  readonly status: number;
  /** The parsed JSON body, or the raw text when the body is not JSON. */
  readonly body: unknown;
  /** The `{message}` the server sent (CONTRACT §2), if any. */
  readonly serverMessage: string | null;
  /** CONTRACT §3: `/api/me` says the stored token is dead. */
  readonly clearsToken: boolean;

  constructor(status: number, body: unknown, defaultMessage: string) {
    const { message, clearToken } = readErrorBody(body);
    const serverMessage = typeof message === "string" && message !== "" ? message : null;
    super(serverMessage ?? defaultMessage);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
    this.serverMessage = serverMessage;
    this.clearsToken = status === 401 && clearToken === true;
  }
}

/** Read by hand, not with the zod schema, to keep zod out of the entry chunk. */
function readErrorBody(body: unknown): Partial<Record<keyof ErrorBody, unknown>> {
  return typeof body === "object" && body !== null ? body : {};
}

type RequestOptions = {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** Sent as JSON, or as is for FormData (multipart uploads). */
  body?: unknown;
  signal?: AbortSignal;
  /** Send no bearer token (SPEC §7: onboarding's suggestions call carries no auth header). */
  anonymous?: boolean;
};

/** Same-origin `/api` call with the session's bearer token; resolves with the parsed JSON body. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers = new Headers({ Accept: "application/json" });
  const token = options.anonymous ? null : getToken();
  if (token) headers.set("Authorization", `Bearer ${token}`);

  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.body);
  }

  const response = await fetch(path, {
    method: options.method ?? "GET",
    headers,
    body,
    credentials: "include",
    signal: options.signal,
  });
  const text = await response.text();
  if (!response.ok) throw failure(response, text);
  return parseJson(text) as T;
}

/** A refused request's error, with the server's message; SPEC §4: a dead token is removed with it. */
function failure(response: Response, text: string): ApiError {
  const error = new ApiError(response.status, parseJson(text) ?? text, defaultErrorMessage(response, text));
  if (error.clearsToken) clearSession();
  return error;
}

/**
 * A same-origin file answered to the signed-in user (a CSV export): its bytes and the name the
 * server gave it. Failures throw an ApiError with the server's message, as `apiRequest` does.
 */
export async function apiDownload(path: string): Promise<{ blob: Blob; filename: string | null }> {
  const headers = new Headers();
  const token = getToken();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  const response = await fetch(path, { headers, credentials: "include" });
  if (!response.ok) throw failure(response, await response.text());
  const disposition = response.headers.get("content-disposition") ?? "";
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), filename };
}

/** For notices (SPEC §8): the server's message when it sent one, else the action's fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? (error.serverMessage ?? fallback) : fallback;
}

/** SPEC §8 default GET failure: `500: Internal Server Error`, `404: <body text>`. */
function defaultErrorMessage(response: Response, text: string): string {
  return response.status >= 500
    ? `${response.status}: ${response.statusText}`
    : `${response.status}: ${text || response.statusText}`;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

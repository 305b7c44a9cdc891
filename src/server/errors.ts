/** The one application error: a status and a message a user can read (CONTRACT §2). */
export class AppError extends Error {
  readonly statusCode: number;
  readonly extra: Record<string, unknown> | undefined;

  constructor(statusCode: number, message: string, extra?: Record<string, unknown>) {
    super(message);
    this.name = "AppError";
    this.statusCode = statusCode;
    this.extra = extra;
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message: string, extra?: Record<string, unknown>) =>
  new AppError(401, message, extra);
export const forbidden = (message = "You do not have permission to do this") => new AppError(403, message);
/** Another organization's id is also "not found" (CONTRACT §2), never "forbidden". */
export const notFound = (message = "Not found") => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);

export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(429, `Too many attempts. Please try again in ${retryAfterSeconds} seconds.`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

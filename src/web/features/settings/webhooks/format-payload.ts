/**
 * A message's body for reading: indented when it is JSON (every message is), as it is otherwise
 * (a body cut at 16 KB). The bytes signed are the body as kept, which Copy payload copies.
 */
export function formatPayload(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

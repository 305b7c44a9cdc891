import { z } from "zod";
import { isAllowedText, notAllowedMessage, type TextOptions } from "./allowed-text";

export { isAllowedText, notAllowedMessage, type TextKind, type TextOptions } from "./allowed-text";

/**
 * The start of every string field: a string, trimmed, refused with "<label> contains characters
 * that are not allowed" when it holds what `isAllowedText` refuses. Trimming comes first, so the
 * line break pasted after a name is still cut off as before rather than refused.
 */
export function text(label: string, options: TextOptions = {}) {
  const string = options.error === undefined ? z.string() : z.string({ error: options.error });
  const trimmed = options.trim === false ? string : string.trim();
  return trimmed.refine((value) => isAllowedText(value, options), { error: notAllowedMessage(label) });
}

/** Deeper than any real metadata; walking (and JSON.stringify) stays far from the stack's limit. */
export const JSON_DEPTH_MAX = 32;

/**
 * What is wrong with a free-form JSON value bound for jsonb: text `isAllowedText` refuses in a
 * key (single-line) or a string (multi-line) at any depth, or nesting deeper than JSON_DEPTH_MAX.
 * Walked with a stack of its own, so no nesting a 1 MB body can hold overflows the call stack.
 */
export function jsonProblem(value: unknown): "text" | "depth" | undefined {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item === "string") {
      if (!isAllowedText(item, { multiline: true })) return "text";
    } else if (item !== null && typeof item === "object") {
      if (depth >= JSON_DEPTH_MAX) return "depth";
      for (const [key, child] of Object.entries(item)) {
        if (!isAllowedText(key)) return "text";
        pending.push([child, depth + 1]);
      }
    }
  }
  return undefined;
}

/** A refinement for free-form JSON: aborts, so later checks (its size) never walk a refused value. */
export function allowedJson(label: string) {
  return (value: unknown, ctx: z.core.$RefinementCtx<unknown>) => {
    const problem = jsonProblem(value);
    if (!problem) return;
    ctx.addIssue({
      code: "custom",
      message: problem === "text" ? notAllowedMessage(label) : `${label} is nested too deeply`,
      input: value,
      continue: false,
    });
  };
}

/** A free-form JSON field (accepted as any JSON value), held to the same boundary as text. */
export function jsonValue(label: string) {
  return z.unknown().superRefine(allowedJson(label));
}

import { z } from "zod";

/**
 * One boundary for text: every string the app accepts, in a body, a path or a query, goes
 * through `text()` (or `jsonValue()` for free-form JSON). PostgreSQL refuses U+0000 in text and
 * jsonb and a UTF-16 half without its pair in jsonb, so they must never get past validation; the
 * other C0 controls belong in no name, address, URL or id, and stored they only break what later
 * shows or parses them. Multi-line fields (descriptions, notes) keep tab and line breaks: LF, and
 * the CR of a CRLF some clients send.
 */

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

export type TextKind = { multiline?: boolean };

export function isAllowedText(value: string, { multiline = false }: TextKind = {}): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20) {
      if (!multiline || (code !== TAB && code !== LF && code !== CR)) return false;
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return false;
    }
  }
  return true;
}

export const notAllowedMessage = (label: string) => `${label} contains characters that are not allowed`;

export type TextOptions = TextKind & {
  /** The message for a value that is missing or not a string; zod's own when omitted. */
  error?: string;
  /** Trimmed unless false: passwords and tokens are taken exactly as typed. */
  trim?: boolean;
};

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

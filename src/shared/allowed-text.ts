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

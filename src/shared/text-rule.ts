import * as zm from "zod/mini";
import { isAllowedText, notAllowedMessage, type TextOptions } from "./allowed-text";

/**
 * `text()` for schemas written with zod/mini (the sign-in page's): the same rule, checked in the
 * same order — trimmed unless told not to, then refused when `isAllowedText` refuses it.
 */
export function textRule(label: string, options: TextOptions = {}) {
  const string = options.error === undefined ? zm.string() : zm.string({ error: options.error });
  const allowed = zm.refine<string>((value) => isAllowedText(value, options), {
    error: notAllowedMessage(label),
  });
  return options.trim === false ? string.check(allowed) : string.check(zm.trim(), allowed);
}

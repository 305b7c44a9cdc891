import { z } from "zod";
import { daysMessage } from "./days";

/**
 * A `?days=` query parameter: a whole number of UTC days up to today, from `min` to `max`, or
 * absent (`fallback` then applies). Digits only: no sign, exponent, fraction or space.
 */
export function daysQuerySchema(min: number, max: number, fallback: number) {
  const message = daysMessage(min, max);
  return z
    .string({ error: message })
    .regex(/^\d{1,3}$/, { error: message })
    .transform(Number)
    .refine((days) => days >= min && days <= max, { error: message })
    .optional()
    .describe(`The window, in UTC days up to today, from ${min} to ${max}; default ${fallback}.`);
}

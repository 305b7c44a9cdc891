/**
 * Money as CONTRACT §8 keeps it: integer minor units of an ISO 4217 currency, never floating point.
 * Amounts arrive in major units (`49.99`) and leave in major units; the exponent of each currency
 * (2 for USD, 0 for JPY, 3 for BHD) is the one `Intl` knows.
 */

export const DEFAULT_CURRENCY = "USD";
/** The largest amount in minor units: exact as a JavaScript number, and far above any sale. */
export const MAX_MINOR_UNITS = Number.MAX_SAFE_INTEGER;

const ISO_CODE = /^[A-Z]{3}$/;
let known: Set<string> | undefined;

/** An ISO 4217 code in use (upper case), as the runtime's Intl lists them. */
export function isCurrency(code: string): boolean {
  if (!ISO_CODE.test(code)) return false;
  known ??= new Set(Intl.supportedValuesOf("currency"));
  return known.has(code);
}

const exponents = new Map<string, number>();

/** Digits after the decimal point in the currency's minor unit: USD 2, JPY 0, BHD 3. */
export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    exponent =
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ??
      2;
    exponents.set(currency, exponent);
  }
  return exponent;
}

export type MoneyProblem = "currency" | "negative" | "format" | "decimals" | "too_large";

export const CURRENCY_MESSAGE = "currency must be an ISO 4217 code such as USD, EUR or JPY";

/** The rule a refused amount broke, in the words the API answers with. */
export function moneyMessage(problem: MoneyProblem, currency: string): string {
  switch (problem) {
    case "currency":
      return CURRENCY_MESSAGE;
    case "negative":
      return "value must not be negative";
    case "format":
      return "value must be a number in major units, such as 49.99";
    case "decimals": {
      const exponent = currencyExponent(currency);
      return exponent === 0
        ? `value must be a whole number for ${currency}`
        : `value must have at most ${exponent} decimal${exponent === 1 ? "" : "s"} for ${currency}`;
    }
    case "too_large":
      return "value is too large";
  }
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Major units to minor units, exactly: `49.99` USD is 4999, `500` JPY is 500. A number is read
 * through its shortest decimal form (what JSON carried), a string as written (the pixel's query),
 * so `0.1 + 0.2` is refused for having too many decimals rather than rounded.
 */
export function toMinorUnits(
  value: number | string,
  currency: string,
): { minor: number } | { problem: MoneyProblem } {
  if (!isCurrency(currency)) return { problem: "currency" };
  if (typeof value === "number" && !Number.isFinite(value)) return { problem: "format" };
  const written = typeof value === "number" ? String(value) : value.trim();
  if (written.startsWith("-")) return { problem: "negative" };
  // Numbers JavaScript writes with an exponent are below 1e-6 or above 1e21: never a price.
  if (/e/i.test(written)) return { problem: /e-/i.test(written) ? "decimals" : "too_large" };
  const match = DECIMAL.exec(written);
  if (!match) return { problem: "format" };
  const whole = match[1] ?? "0";
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  const exponent = currencyExponent(currency);
  if (fraction.length > exponent) return { problem: "decimals" };
  const minor = BigInt(whole) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, "0") || "0");
  if (minor > BigInt(MAX_MINOR_UNITS)) return { problem: "too_large" };
  return { minor: Number(minor) };
}

/** Minor units back to major units, for JSON: 4999 USD is 49.99. */
export function toMajorUnits(minor: number, currency: string): number {
  return minor / 10 ** currencyExponent(currency);
}

/** Minor units as an exact decimal string with the currency's decimals: 4999 USD is "49.99". */
export function formatMinorUnits(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  if (exponent === 0) return String(minor);
  const digits = String(Math.abs(minor)).padStart(exponent + 1, "0");
  return `${minor < 0 ? "-" : ""}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** An amount for people: "$49.99", "¥500", "€1,234.50", in the reader's locale. */
export function formatMoney(value: number, currency: string, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(value);
}

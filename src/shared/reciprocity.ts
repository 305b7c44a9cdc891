// The ledger's rules, free of zod so that the dashboard's first screen can use them without loading
// it; the API's shapes are in reciprocity-schemas.ts.
import { daysMessage } from "./days";
import type { SentReceived } from "./tracking";

/** CONTRACT §10: the ledger's window, in days, and the one the Ads API weighs partners over. */
export const LEDGER_DAYS_MIN = 1;
export const LEDGER_DAYS_MAX = 365;
export const LEDGER_DAYS_DEFAULT = 30;
export const AD_WEIGHT_DAYS = 30;

export const AD_WEIGHT_MIN = 0.25;
export const AD_WEIGHT_MAX = 4;
/** CONTRACT §10: counted clicks alone lift a weight this far and no further. */
export const AD_WEIGHT_CLICKS_MAX = 2;
/** How far proof moves a weight either way: leads and sales, recorded by key or Stripe. */
export const AD_WEIGHT_PROOF_MIN = 0.5;
export const AD_WEIGHT_PROOF_MAX = 2;
/**
 * Clicks either way that count as much as the first real ones: with a few clicks a partner's
 * weight moves a little, and it takes tens of clicks to reach a bound.
 */
export const AD_WEIGHT_SMOOTHING = 10;
/** The same for proof: a handful of proven conversions, not one, reaches its bound. */
export const AD_WEIGHT_PROOF_SMOOTHING = 3;

/** Counts both ways: `received` what the partner gave the caller, `sent` what the caller gave it. */
const NO_PROOF: SentReceived = { sent: 0, received: 0 };

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * How often the Ads API shows a partner's ads to the caller's readers, relative to 1 for a
 * partner with no history (CONTRACT §10), over the last AD_WEIGHT_DAYS days:
 *
 *   clicks = clamp((clicks received + 10) / (clicks sent + 10), 0.25, 2)
 *   proof  = clamp((proven received + 3) / (proven sent + 3), 0.5, 2)
 *   weight = clamp(clicks × proof, 0.25, 4)
 *
 * `clicks` counts counted clicks only (CONTRACT §5: no bots, repeats, bursts, clicks past a
 * network's 3 a day, or a sender's own). `proven` counts the leads and the sales recorded with the
 * advertiser's own API key or Stripe, never the pixel, which anyone holding a click id can call:
 * received, the partner's clicks that converted at the caller, as the caller recorded them; sent,
 * the caller's that converted at the partner, as the partner recorded them.
 *
 * It is 1 with no history and whenever both give as much; it rises with what the partner gives,
 * and falls as the caller gives without return. Clicks alone take it to ×2 at most: clicks cost
 * a partner little to make, proof is what only the caller itself records. The smoothing keeps a
 * handful of events from swinging it, and the bounds keep every partner in the rotation and none
 * taking it over. Worked examples: docs/decisions.md and the API docs' "How partners take turns".
 */
export function adWeight(clicks: SentReceived, proven: SentReceived = NO_PROOF): number {
  const byClicks = clamp(
    (clicks.received + AD_WEIGHT_SMOOTHING) / (clicks.sent + AD_WEIGHT_SMOOTHING),
    AD_WEIGHT_MIN,
    AD_WEIGHT_CLICKS_MAX,
  );
  const byProof = clamp(
    (proven.received + AD_WEIGHT_PROOF_SMOOTHING) / (proven.sent + AD_WEIGHT_PROOF_SMOOTHING),
    AD_WEIGHT_PROOF_MIN,
    AD_WEIGHT_PROOF_MAX,
  );
  return clamp(byClicks * byProof, AD_WEIGHT_MIN, AD_WEIGHT_MAX);
}

export const LEDGER_DAYS_MESSAGE = daysMessage(LEDGER_DAYS_MIN, LEDGER_DAYS_MAX);

/** "Acme sent you 40 more clicks than you sent them": what a balance means, in words. */
export function balanceSentence(name: string, balance: number): string {
  const clicks = (n: number) => `${n} more ${n === 1 ? "click" : "clicks"}`;
  if (balance > 0) return `${name} sent you ${clicks(balance)} than you sent them`;
  if (balance < 0) return `You sent ${name} ${clicks(-balance)} than they sent you`;
  return `You and ${name} have sent each other as many clicks`;
}

import type { UncountedClickReason } from "@shared/click-reasons";
import { UNCOUNTED_CLICK_REASONS } from "@shared/click-reasons";
import type { UncountedSide } from "@shared/tracking";
import { numberFormat } from "@/lib/number-format";

type Words = { one: string; many: string };

/** CONTRACT §5's reasons in plain words, for a person reading the overview. */
const REASON_WORDS: Record<UncountedClickReason, Words> = {
  bot: { one: "bot", many: "bots" },
  repeat: { one: "repeat", many: "repeats" },
  burst: { one: "burst (mail scanner)", many: "bursts (mail scanners)" },
  source_cap: { one: "over the daily limit for one network", many: "over the daily limit for one network" },
  own_click: { one: "your own team's click", many: "your own team's clicks" },
  blocked: { one: "on a blocked pair", many: "on blocked pairs" },
  not_live: { one: "on an ad not live", many: "on ads not live" },
};

/** On partners' links to you, an own click is the sender's team's, not yours. */
const RECEIVED_WORDS: Partial<Record<UncountedClickReason, Words>> = {
  own_click: { one: "the sender's own team's click", many: "the sender's own team's clicks" },
};

/**
 * "12 not counted: 9 bots, 3 repeats", the most frequent reason first; "Every click counted" when
 * none was left out.
 */
export function describeUncounted(side: UncountedSide, direction: "sent" | "received"): string {
  if (side.total === 0) return "Every click counted";
  const format = numberFormat();
  const parts = UNCOUNTED_CLICK_REASONS.map((reason, order) => ({
    reason,
    order,
    count: side.reasons[reason],
  }))
    .filter(({ count }) => count > 0)
    .sort((a, b) => b.count - a.count || a.order - b.order)
    .map(({ reason, count }) => {
      const words = (direction === "received" ? RECEIVED_WORDS[reason] : undefined) ?? REASON_WORDS[reason];
      return `${format.format(count)} ${count === 1 ? words.one : words.many}`;
    });
  return `${format.format(side.total)} not counted: ${parts.join(", ")}`;
}

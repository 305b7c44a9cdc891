import { AD_WEIGHT_MAX, AD_WEIGHT_MIN } from "@shared/reciprocity";
import {
  adWeightPosition,
  adWeightSentence,
  formatAdWeight,
} from "@/features/overview/partners/partner-figures";
import { cn } from "@/lib/utils";

const SCALE = `${formatAdWeight(AD_WEIGHT_MIN)} to ${formatAdWeight(AD_WEIGHT_MAX)}`;

/**
 * A partner's ad weight on its scale (×0.25 to ×4, ×1 in the middle) and as a number. The bar
 * grows from ×1: right when the partner's ads get more than the usual share of the caller's ad
 * slots, left when less. One colour either way: a weight is neither good nor bad news for the
 * reader (it pays back what the partner sent), so only the balance is coloured by what it means.
 * With `partner`, the weight's sentence is what a screen reader hears and a pointer's tooltip.
 */
export function AdWeightMeter({
  weight,
  partner,
  className,
}: {
  weight: number;
  partner?: string;
  className?: string;
}) {
  const position = adWeightPosition(weight);
  const from = Math.min(position, 0.5);
  const width = Math.abs(position - 0.5);
  const label = formatAdWeight(weight);
  const sentence = partner ? `${adWeightSentence(partner, weight)}.` : undefined;
  return (
    <span
      data-cell="ad-weight"
      title={sentence ?? `Ad weight ${label}, on a scale from ${SCALE}`}
      className={cn("inline-flex items-center gap-2", className)}
    >
      <span aria-hidden="true" className="relative h-2 w-20 shrink-0 overflow-hidden rounded-full bg-muted">
        <span
          data-testid="ad-weight-bar"
          className="absolute inset-y-0 rounded-full bg-sky-600 dark:bg-sky-400"
          style={{ left: `${from * 100}%`, width: `${width * 100}%` }}
        />
        <span className="absolute inset-y-0 left-1/2 w-px -translate-x-1/2 bg-foreground/40" />
      </span>
      <span data-testid="ad-weight-value" className="font-medium text-sm tabular-nums">
        {sentence ? <span aria-hidden="true">{label}</span> : label}
      </span>
      {sentence ? <span className="sr-only">{sentence}</span> : null}
    </span>
  );
}

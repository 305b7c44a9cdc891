import { AD_WEIGHT_MAX, AD_WEIGHT_MIN } from "@shared/reciprocity";
import { adWeightPosition, formatAdWeight } from "@/features/overview/partners/partner-figures";
import { cn } from "@/lib/utils";

const SCALE = `${formatAdWeight(AD_WEIGHT_MIN)} to ${formatAdWeight(AD_WEIGHT_MAX)}`;

/**
 * A partner's ad weight on its scale (×0.25 to ×4, ×1 in the middle) and as a number. The bar
 * grows from ×1: right and green when the partner's ads are shown more than a newcomer's, left
 * and amber when less. The number says it all for a screen reader; the bar is decoration.
 */
export function AdWeightMeter({ weight, className }: { weight: number; className?: string }) {
  const position = adWeightPosition(weight);
  const from = Math.min(position, 0.5);
  const width = Math.abs(position - 0.5);
  const label = formatAdWeight(weight);
  return (
    <span
      data-cell="ad-weight"
      title={`Ad weight ${label}, on a scale from ${SCALE}`}
      className={cn("inline-flex items-center gap-2", className)}
    >
      <span aria-hidden="true" className="relative h-2 w-20 shrink-0 overflow-hidden rounded-full bg-muted">
        <span
          data-testid="ad-weight-bar"
          className={cn(
            "absolute inset-y-0 rounded-full",
            position >= 0.5 ? "bg-success" : "bg-amber-500 dark:bg-amber-400",
          )}
          style={{ left: `${from * 100}%`, width: `${width * 100}%` }}
        />
        <span className="absolute inset-y-0 left-1/2 w-px -translate-x-1/2 bg-foreground/40" />
      </span>
      <span data-testid="ad-weight-value" className="font-medium text-sm tabular-nums">
        {label}
      </span>
    </span>
  );
}

import { useId, useRef } from "react";
import {
  CHART_HEIGHT,
  CHART_SERIES,
  type ChartDay,
  type ChartSeries,
  type ChartText,
  chartLayout,
  describeDay,
  formatDay,
  labelledDayIndexes,
  maxDailyValue,
  minDailyValue,
  niceRange,
  niceScale,
  type SeriesKey,
  seriesPoints,
  summarizeDailyFigures,
  xPosition,
  yPosition,
} from "@/features/overview/chart-geometry";
import { useElementWidth } from "@/features/overview/use-element-width";

/** Width used before the container is measured; any value works, the chart redraws once measured. */
const FALLBACK_WIDTH = 640;
const DASH = "5 4";

export function ChartLegend({ series: shown = CHART_SERIES }: { series?: readonly ChartSeries<string>[] }) {
  return (
    <ul data-testid="chart-legend" className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
      {shown.map((series) => (
        <li key={series.key} className="flex items-center gap-1.5">
          <svg aria-hidden="true" width="20" height="8" className={series.colour}>
            <line
              x1="0"
              y1="4"
              x2="20"
              y2="4"
              stroke="currentColor"
              strokeWidth="2"
              strokeDasharray={series.dashed ? DASH : undefined}
            />
          </svg>
          {series.label}
        </li>
      ))}
    </ul>
  );
}

/** What a chart other than the counts of clicks and leads draws (the revenue of one currency). */
export type ChartKind<K extends string> = {
  series: readonly ChartSeries<K>[];
  text: ChartText;
  /** The picture's title for assistive technology. */
  title: string;
  /** The y axis' title. */
  axis: string;
};

const COUNTS_CHART: ChartKind<SeriesKey> = {
  series: CHART_SERIES,
  text: { subject: "Clicks and leads per day", format: String },
  title: "Clicks and leads, last 30 days",
  axis: "Count",
};

/**
 * Lines over 30 days in plain SVG: the four counts, or the revenue of one currency both ways. The
 * picture is one image for assistive technology (its title and description carry the totals);
 * each day also has a native tooltip with its numbers.
 */
export function DailyChart<K extends string = SeriesKey>({
  days,
  kind = COUNTS_CHART as unknown as ChartKind<K>,
}: {
  days: readonly ChartDay<NoInfer<K>>[];
  kind?: ChartKind<K>;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(containerRef, FALLBACK_WIDTH);
  const titleId = useId();
  const descriptionId = useId();

  const layout = chartLayout(width);
  const { series: shown, text } = kind;
  // Net revenue may dip below 0 on a day of refunds: the axis then reaches below 0 too.
  const lowest = minDailyValue(days, shown);
  const { min, max, ticks } =
    lowest < 0
      ? niceRange(lowest, maxDailyValue(days, shown))
      : { min: 0, ...niceScale(maxDailyValue(days, shown)) };
  const bottom = layout.top + layout.plotHeight;
  const labelled = labelledDayIndexes(days.length, layout);
  const columnWidth = days.length > 1 ? layout.plotWidth / (days.length - 1) : layout.plotWidth;
  const summary = summarizeDailyFigures(days, shown, text);
  // On a phone the days are ~9 px apart: smaller dots keep the lines readable.
  const pointRadius = columnWidth < 12 ? 1.75 : 2.5;

  return (
    <div ref={containerRef} className="w-full">
      <svg
        data-testid="daily-chart"
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        width="100%"
        height={CHART_HEIGHT}
        className="block overflow-visible"
      >
        <title id={titleId}>{kind.title}</title>
        <desc id={descriptionId}>{summary}</desc>

        {ticks.map((tick) => {
          const y = yPosition(layout, tick, max, min);
          return (
            <g key={tick}>
              <line
                x1={layout.left}
                x2={layout.left + layout.plotWidth}
                y1={y}
                y2={y}
                className="stroke-border"
              />
              <text
                x={layout.left - 6}
                y={y}
                textAnchor="end"
                dominantBaseline="middle"
                className="fill-muted-foreground text-[11px] tabular-nums"
              >
                {(text.formatTick ?? text.format)(tick)}
              </text>
            </g>
          );
        })}
        <text
          transform={`translate(12 ${layout.top + layout.plotHeight / 2}) rotate(-90)`}
          textAnchor="middle"
          className="fill-muted-foreground text-[11px]"
        >
          {kind.axis}
        </text>

        {labelled.map((index) => {
          const day = days[index];
          if (!day) return null;
          return (
            <text
              key={day.day}
              data-testid="chart-x-label"
              x={xPosition(layout, index, days.length)}
              y={bottom + 16}
              textAnchor="middle"
              className="fill-muted-foreground text-[11px]"
            >
              {formatDay(day.day)}
            </text>
          );
        })}
        <text
          x={layout.left + layout.plotWidth / 2}
          y={layout.height - 4}
          textAnchor="middle"
          className="fill-muted-foreground text-[11px]"
        >
          Day
        </text>

        {shown.map((series) => (
          <g key={series.key} data-series={series.key} className={series.colour}>
            <polyline
              data-testid="chart-line"
              points={seriesPoints(days, series.key, layout, max, min)}
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinejoin="round"
              strokeDasharray={series.dashed ? DASH : undefined}
            />
            {days.map((day, index) => (
              <circle
                key={day.day}
                data-testid="chart-point"
                cx={xPosition(layout, index, days.length)}
                cy={yPosition(layout, day[series.key], max, min)}
                r={pointRadius}
                fill="currentColor"
              />
            ))}
          </g>
        ))}

        {days.map((day, index) => (
          // A transparent column per day: hovering anywhere above the date shows its numbers.
          <g key={day.day} data-testid="chart-day">
            <title>{describeDay(day, shown, text)}</title>
            <rect
              x={xPosition(layout, index, days.length) - columnWidth / 2}
              y={layout.top}
              width={columnWidth}
              height={layout.plotHeight}
              className="fill-transparent hover:fill-foreground/5"
            />
          </g>
        ))}
      </svg>
    </div>
  );
}

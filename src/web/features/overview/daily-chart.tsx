import { type KeyboardEvent, useId, useRef, useState } from "react";
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
import { cn } from "@/lib/utils";

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

/** The keys that move between days, as in a slider: one day, or to the first or the last. */
function dayAfterKey(key: string, index: number, count: number): number | null {
  if (key === "ArrowLeft" || key === "ArrowDown") return Math.max(index - 1, 0);
  if (key === "ArrowRight" || key === "ArrowUp") return Math.min(index + 1, count - 1);
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

/** One day's numbers beside its column: shown on hover, on a tap and on keyboard focus. */
function DayTooltip<K extends string>({
  day,
  x,
  width,
  top,
  series,
  text,
}: {
  day: ChartDay<K>;
  x: number;
  width: number;
  top: number;
  series: readonly ChartSeries<K>[];
  text: ChartText;
}) {
  // On the side of the day with more room, so it never leaves the card.
  const side = x > width / 2 ? { right: width - x + 10 } : { left: x + 10 };
  return (
    // The focused day's label says the same to a screen reader: this is for the eyes.
    <div
      data-testid="chart-tooltip"
      aria-hidden="true"
      style={{ ...side, top }}
      className="pointer-events-none absolute z-10 grid min-w-40 gap-1 rounded-md border bg-popover px-3 py-2 text-popover-foreground text-xs shadow-md"
    >
      <p className="font-medium">{formatDay(day.day)}</p>
      <ul className="grid gap-0.5">
        {series.map((item) => (
          <li key={item.key} className="flex items-center gap-2">
            <svg aria-hidden="true" width="14" height="8" className={item.colour}>
              <line
                x1="0"
                y1="4"
                x2="14"
                y2="4"
                stroke="currentColor"
                strokeWidth="2"
                strokeDasharray={item.dashed ? "3 2" : undefined}
              />
            </svg>
            <span className="text-muted-foreground">{item.label}</span>
            <span className="ml-auto pl-3 font-medium tabular-nums">{text.format(day[item.key])}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Lines over 30 days in plain SVG: the four counts, or the revenue of one currency both ways. The
 * picture is one image for assistive technology (its title and description carry the totals).
 * Over it, one button per day, a single tab stop moved by the arrow keys: hovering, tapping or
 * focusing a day shows its numbers beside it, and its label reads them out.
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
  const dayButtons = useRef<(HTMLButtonElement | null)[]>([]);
  // The day under the pointer, and the day focused or tapped: the tooltip shows the first it has.
  const [hovered, setHovered] = useState<number | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  // The day the chart's one tab stop lands on: the latest, until another is chosen.
  const [rover, setRover] = useState<number | null>(null);

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
  const last = days.length - 1;
  const tabStop = rover !== null && rover <= last ? rover : last;
  const shownIndex = hovered ?? selected;
  const shownDay = shownIndex !== null && shownIndex <= last ? days[shownIndex] : undefined;

  const moveWith = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    if (event.key === "Escape") {
      setSelected(null);
      setHovered(null);
      return;
    }
    const next = dayAfterKey(event.key, index, days.length);
    if (next === null) return;
    event.preventDefault();
    dayButtons.current[next]?.focus();
  };

  return (
    <div ref={containerRef} className="relative w-full">
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

        {shownDay && shownIndex !== null ? (
          <line
            data-testid="chart-guide"
            x1={xPosition(layout, shownIndex, days.length)}
            x2={xPosition(layout, shownIndex, days.length)}
            y1={layout.top}
            y2={bottom}
            className="stroke-foreground/30"
          />
        ) : null}

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
                r={index === shownIndex ? pointRadius + 1.5 : pointRadius}
                fill="currentColor"
              />
            ))}
          </g>
        ))}
      </svg>

      {/* A column per day over the plot: hovering anywhere above the date shows its numbers. */}
      {/* biome-ignore lint/a11y/useSemanticElements: a group of the days' buttons, not a form's fieldset. */}
      <div
        role="group"
        aria-label={`${kind.title}, day by day`}
        data-testid="chart-days"
        className="absolute inset-x-0 top-0"
        style={{ height: CHART_HEIGHT }}
        onPointerLeave={() => setHovered(null)}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget)) setSelected(null);
        }}
      >
        {days.map((day, index) => (
          <button
            key={day.day}
            ref={(element) => {
              dayButtons.current[index] = element;
            }}
            type="button"
            data-testid="chart-day"
            data-day={day.day}
            aria-label={describeDay(day, shown, text)}
            tabIndex={index === tabStop ? 0 : -1}
            style={{
              left: xPosition(layout, index, days.length) - columnWidth / 2,
              top: layout.top,
              width: columnWidth,
              height: layout.plotHeight,
            }}
            className={cn(
              "absolute cursor-default rounded-sm outline-none hover:bg-foreground/5 focus-visible:ring-2 focus-visible:ring-ring",
              index === shownIndex && "bg-foreground/5",
            )}
            onPointerEnter={(event) => {
              // A touch's pointer leaves as soon as it lifts: the tap selects the day instead.
              if (event.pointerType === "mouse") setHovered(index);
            }}
            onFocus={() => {
              setRover(index);
              setSelected(index);
            }}
            onClick={(event) => {
              // A tap (or a click) shows the day even where the browser does not focus buttons.
              setSelected(index);
              event.currentTarget.focus();
            }}
            onKeyDown={(event) => moveWith(event, index)}
          />
        ))}
      </div>
      {shownDay && shownIndex !== null ? (
        <DayTooltip
          day={shownDay}
          x={xPosition(layout, shownIndex, days.length)}
          width={layout.width}
          top={layout.top}
          series={shown}
          text={text}
        />
      ) : null}
    </div>
  );
}

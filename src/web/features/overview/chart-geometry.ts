import type { DailyFigures } from "@shared/tracking";
import { once } from "@/lib/once";

export type DayFigures = DailyFigures[number];
export type SeriesKey = Exclude<keyof DayFigures, "day">;

/** One day of a chart: its date and a number per series key. */
export type ChartDay<K extends string = string> = { day: string } & Record<K, number>;

export type ChartSeries<K extends string = SeriesKey> = {
  key: K;
  label: string;
  /** Text colour class; lines, points and the legend draw with `currentColor`. */
  colour: string;
  /** Received series are dashed, so the chart does not rely on colour alone. */
  dashed: boolean;
};

export const CHART_SERIES: ChartSeries<SeriesKey>[] = [
  { key: "clicksSent", label: "Clicks sent", colour: "text-sky-600 dark:text-sky-400", dashed: false },
  {
    key: "clicksReceived",
    label: "Clicks received",
    colour: "text-violet-600 dark:text-violet-400",
    dashed: true,
  },
  { key: "leadsSent", label: "Leads sent", colour: "text-emerald-600 dark:text-emerald-400", dashed: false },
  {
    key: "leadsReceived",
    label: "Leads received",
    colour: "text-amber-600 dark:text-amber-400",
    dashed: true,
  },
];

export const CHART_HEIGHT = 240;
/**
 * Room for the y tick labels and axis title (left) and the date labels and axis title (bottom). The
 * right margin holds half of the centred label under the latest day (the SVG does not clip).
 */
const MARGIN = { top: 12, right: 20, bottom: 40, left: 44 };
/** Date labels are ~40 px wide at 11 px; keep at least this much between their centres. */
const MIN_LABEL_SPACING = 56;

export type ChartLayout = {
  width: number;
  height: number;
  left: number;
  top: number;
  plotWidth: number;
  plotHeight: number;
};

/**
 * The viewBox matches the measured width in pixels, so text keeps its real size on a 375 px phone
 * and on a wide screen alike (a fixed viewBox would shrink or blow up the labels).
 */
export function chartLayout(width: number, height: number = CHART_HEIGHT): ChartLayout {
  return {
    width,
    height,
    left: MARGIN.left,
    top: MARGIN.top,
    plotWidth: Math.max(width - MARGIN.left - MARGIN.right, 1),
    plotHeight: height - MARGIN.top - MARGIN.bottom,
  };
}

/** A y axis for whole counts: 0 to a round maximum in at most `maxTicks` integer steps. */
export function niceScale(maxValue: number, maxTicks = 4): { max: number; ticks: number[] } {
  const target = Math.max(maxValue, 1);
  const raw = target / maxTicks;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const nice = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw) ?? raw;
  const step = Math.max(1, Math.ceil(nice));
  const max = Math.ceil(target / step) * step;
  return { max, ticks: Array.from({ length: max / step + 1 }, (_, index) => index * step) };
}

/**
 * A y axis that may go below 0 (net revenue: a day whose refunds took back more than it earned),
 * from a round minimum under `minValue` to a round maximum, 0 among the ticks.
 */
export function niceRange(
  minValue: number,
  maxValue: number,
  maxTicks = 4,
): { min: number; max: number; ticks: number[] } {
  const low = Math.min(minValue, 0);
  const high = Math.max(maxValue, 0);
  const raw = Math.max(high - low, 1) / maxTicks;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const nice = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw) ?? raw;
  const step = Math.max(1, Math.ceil(nice));
  const min = Math.floor(low / step) * step;
  const max = Math.max(Math.ceil(high / step) * step, min + step);
  return {
    min,
    max,
    ticks: Array.from({ length: (max - min) / step + 1 }, (_, index) => min + index * step),
  };
}

export function xPosition(layout: ChartLayout, index: number, count: number): number {
  if (count <= 1) return layout.left + layout.plotWidth / 2;
  return layout.left + (index * layout.plotWidth) / (count - 1);
}

export function yPosition(layout: ChartLayout, value: number, max: number, min = 0): number {
  return layout.top + layout.plotHeight - ((value - min) / (max - min)) * layout.plotHeight;
}

/** The `points` attribute of one series' polyline. */
export function seriesPoints<K extends string>(
  days: readonly ChartDay<K>[],
  key: K,
  layout: ChartLayout,
  max: number,
  min = 0,
): string {
  return days
    .map(
      (day, index) =>
        `${round(xPosition(layout, index, days.length))},${round(yPosition(layout, day[key], max, min))}`,
    )
    .join(" ");
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Which days get a date label: counted back from today, so the latest day is always labelled. */
export function labelledDayIndexes(count: number, layout: ChartLayout): number[] {
  if (count === 0) return [];
  const spacing = count > 1 ? layout.plotWidth / (count - 1) : layout.plotWidth;
  const step = Math.max(1, Math.ceil(MIN_LABEL_SPACING / spacing));
  const indexes: number[] = [];
  for (let index = count - 1; index >= 0; index -= step) indexes.unshift(index);
  return indexes;
}

/** Days arrive as `YYYY-MM-DD` (UTC); read them in UTC so no time zone shifts the date. */
const dayFormat = once(
  () => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }),
);

export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dayFormat().format(date);
}

/** How a chart names and writes its numbers: counts by default, money for the revenue chart. */
export type ChartText = {
  /** "Clicks and leads per day": the start of the text alternative. */
  subject: string;
  format: (value: number) => string;
  /** The y axis' labels, when they need to be shorter than `format` writes (a compact "$12K"). */
  formatTick?: (value: number) => string;
};

const COUNTS: ChartText = { subject: "Clicks and leads per day", format: String };

export function describeDay<K extends string = SeriesKey>(
  day: ChartDay<NoInfer<K>>,
  series: readonly ChartSeries<K>[] = CHART_SERIES as unknown as ChartSeries<K>[],
  text: ChartText = COUNTS,
): string {
  const values = series.map((item) => `${item.label.toLowerCase()} ${text.format(day[item.key])}`);
  return `${formatDay(day.day)}: ${values.join(", ")}`;
}

/** The chart's text alternative: the period and each series' total. */
export function summarizeDailyFigures<K extends string = SeriesKey>(
  days: readonly ChartDay<NoInfer<K>>[],
  series: readonly ChartSeries<K>[] = CHART_SERIES as unknown as ChartSeries<K>[],
  text: ChartText = COUNTS,
): string {
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return `${text.subject}: no data.`;
  const totals = series.map(
    (item) => `${item.label.toLowerCase()} ${text.format(days.reduce((sum, day) => sum + day[item.key], 0))}`,
  );
  return `${text.subject}, ${formatDay(first.day)} to ${formatDay(last.day)}. Totals: ${totals.join(", ")}.`;
}

export function maxDailyValue<K extends string = SeriesKey>(
  days: readonly ChartDay<NoInfer<K>>[],
  series: readonly ChartSeries<K>[] = CHART_SERIES as unknown as ChartSeries<K>[],
): number {
  return Math.max(0, ...days.flatMap((day) => series.map((item) => day[item.key])));
}

/** The lowest value of the chart's series, or 0: below 0 only for net revenue. */
export function minDailyValue<K extends string = SeriesKey>(
  days: readonly ChartDay<NoInfer<K>>[],
  series: readonly ChartSeries<K>[] = CHART_SERIES as unknown as ChartSeries<K>[],
): number {
  return Math.min(0, ...days.flatMap((day) => series.map((item) => day[item.key])));
}

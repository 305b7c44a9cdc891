import { once } from "@/lib/once";

/**
 * Numbers as the English UI writes them (1,000,000), the same for every viewer. Made on first use:
 * the page's first `Intl` object loads ICU's data, which start-up does in a task of its own.
 */
export const numberFormat = once(() => new Intl.NumberFormat("en-US"));

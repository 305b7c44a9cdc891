import { useState } from "react";

/**
 * SPEC §5: search boxes filter case-insensitively on name or website. `fields` picks those two
 * from an item; an empty query keeps every item.
 */
export function useSearchFilter<T>(items: readonly T[], fields: (item: T) => readonly (string | null)[]) {
  const [query, setQuery] = useState("");
  const needle = query.trim().toLowerCase();
  const results = needle
    ? items.filter((item) => fields(item).some((value) => value?.toLowerCase().includes(needle)))
    : items;
  return { query, setQuery, results, isFiltering: needle !== "" };
}

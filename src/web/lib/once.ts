/**
 * A value made on first use, then kept. For objects that are costly to make (an `Intl` formatter
 * loads its locale data) and would otherwise be made while a screen's code is evaluated, in the
 * same task as everything else that screen does first.
 */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

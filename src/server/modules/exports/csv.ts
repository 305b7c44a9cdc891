import { Readable } from "node:stream";
import { stringify } from "csv-stringify";

/** What a spreadsheet would run as a formula when the cell is opened (OWASP: CSV injection). */
const FORMULA_START = /^[=+\-@]/;

/** A cell as written: a text that a spreadsheet would take for a formula starts with a quote. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * CSV as RFC 4180 writes it (csv-stringify: CRLF line ends, quotes where a field needs them,
 * doubled inside), with a header row, from rows produced as the client reads: a slow reader slows
 * the reading of the rows, so memory stays flat whatever the size. Empty cells are `null`.
 */
export function csvStream(header: readonly string[], rows: AsyncIterable<(string | null)[]>): Readable {
  const stringifier = stringify({
    header: true,
    columns: [...header],
    record_delimiter: "windows",
    cast: { string: neutralizeFormula },
  });
  const source = Readable.from(
    (async function* () {
      for await (const cells of rows) yield cells.map((cell) => cell ?? "");
    })(),
  );
  source.on("error", (error) => stringifier.destroy(error));
  return source.pipe(stringifier);
}

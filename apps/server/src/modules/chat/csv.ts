import { neutraliseFormula } from "@twinline/contracts";

/**
 * One CSV cell (RFC 4180), quoted only when it must be: a cell holding a quote, comma or line
 * break is quoted, its quotes doubled. Formulas are neutralised by the project's one rule
 * (contracts/csv.ts).
 */
export function csvCell(value: string | number): string {
  if (typeof value === "number") return String(value);
  let text = neutraliseFormula(value);
  if (/[",\r\n]/.test(text)) text = `"${text.replaceAll('"', '""')}"`;
  return text;
}

/** One CSV line, CRLF-terminated. */
export function csvRow(cells: ReadonlyArray<string | number>): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/**
 * One CSV cell (RFC 4180). Text that a spreadsheet would run as a formula (starting with
 * = + - @, or a tab or carriage return that hides one) gets a leading ' first; a cell holding a
 * quote, comma or line break is quoted, its quotes doubled.
 */
export function csvCell(value: string | number): string {
  if (typeof value === "number") return String(value);
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  if (/[",\r\n]/.test(text)) text = `"${text.replaceAll('"', '""')}"`;
  return text;
}

/** One CSV line, CRLF-terminated. */
export function csvRow(cells: ReadonlyArray<string | number>): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/**
 * The one CSV encoder of the web app (decision 0047): every cell quoted, missing values as N/A,
 * and one formula rule: a text cell starting with = + - @, a tab or a carriage return is
 * neutralised with a leading apostrophe, so a spreadsheet never runs it ("-1+1", "=HYPERLINK").
 * A cell that is only a number ("-5.00", an amount of a refund) is a number, not a formula, and
 * is written as it is.
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export function csvCell(value: CsvValue): string {
  if (typeof value === "number") return `"${Number.isFinite(value) ? value : "N/A"}"`;
  const text = value === null || value === undefined || value === "" ? "N/A" : String(value);
  const safe = FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** Header and rows, CRLF between lines (RFC 4180). */
export function toCsv(headers: readonly string[], rows: readonly CsvValue[][]): string {
  return [headers, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n");
}

/** "credit-transactions-2026-11-22.csv" (the local date). */
export function csvFileName(prefix: string, now = new Date()): string {
  const day = [
    now.getFullYear(),
    String(now.getMonth() + 1).padStart(2, "0"),
    String(now.getDate()).padStart(2, "0"),
  ].join("-");
  return `${prefix}-${day}.csv`;
}

/** Hands a file to the browser as a download (an object so tests can watch it). */
export const downloadFile = {
  save(fileName: string, blob: Blob) {
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    link.rel = "noopener";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  },
};

/** A CSV text as a download, with a BOM so spreadsheets read it as UTF-8. */
export const downloadCsv = {
  save(fileName: string, csv: string) {
    downloadFile.save(fileName, new Blob([`\uFEFF${csv}`], { type: "text/csv;charset=utf-8" }));
  },
};

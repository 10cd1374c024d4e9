/**
 * The one CSV encoder of the web app (decision 0047): every cell quoted, missing values as N/A.
 * The cell rule, formula-safe cells included, is the contract's csvCell, so the page exports here
 * and the server's "Export all" write the same cells.
 */
import { type CsvValue, csvCell, csvLine } from "@twinline/contracts";

export { type CsvValue, csvCell };

/** Header and rows, CRLF between lines (RFC 4180). */
export function toCsv(headers: readonly string[], rows: readonly CsvValue[][]): string {
  return [headers, ...rows].map(csvLine).join("\r\n");
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

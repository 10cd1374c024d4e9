/**
 * CSV export of the rows on screen, without a server call (admin-side spec, section 7): missing
 * values show as N/A, the file name carries the current date.
 */
import { type CsvValue, csvLine } from "@twinline/contracts";

export type { CsvValue };

/** The cells are the contract's (csvCell): the server's "Export all" writes the same. */
export function toCsv(headers: readonly string[], rows: readonly CsvValue[][]): string {
  return [headers, ...rows].map(csvLine).join("\r\n");
}

/** "credit-transactions-2026-11-22.csv". */
export function csvFileName(prefix: string, now = new Date()): string {
  const day = [
    now.getFullYear(),
    String(now.getMonth() + 1).padStart(2, "0"),
    String(now.getDate()).padStart(2, "0"),
  ].join("-");
  return `${prefix}-${day}.csv`;
}

/** Hands the file to the browser as a download. */
export const downloadCsv = {
  save(fileName: string, csv: string) {
    const blob = new Blob([`\uFEFF${csv}`], { type: "text/csv;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  },
  /** A file the server made (Export all): saved as it came, its BOM included. */
  saveBlob(fileName: string, blob: Blob) {
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  },
};

import toast from "react-hot-toast";
import { type CsvValue, csvFileName, downloadCsv, toCsv } from "@/lib/csv";

/** A screen's CSV export (admin-side spec, section 7): its file, its columns and its toasts. */
export interface CsvExport<Row> {
  /** The file name before its date: "credit-transactions". */
  fileName: string;
  /** The contract's column names. */
  columns: readonly string[];
  /** One row's values, in the columns' order. */
  row: (row: Row) => CsvValue[];
  done: string;
  failed: string;
}

/** Downloads the rows on screen as the screen's CSV and toasts how it went. */
export function exportCsv<Row>(csv: CsvExport<Row>, rows: readonly Row[]): void {
  try {
    downloadCsv.save(csvFileName(csv.fileName), toCsv(csv.columns, rows.map(csv.row)));
    toast.success(csv.done);
  } catch {
    toast.error(csv.failed);
  }
}

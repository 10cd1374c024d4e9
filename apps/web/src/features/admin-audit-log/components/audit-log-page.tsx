import { useQuery } from "@tanstack/react-query";
import { AUDIT_TARGET_TYPES, type AuditEntry } from "@twinline/contracts";
import { type FormEvent, useState } from "react";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { inputClasses, TextField } from "@/components/ui/field";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { EmailText } from "@/components/ui/person-cells";
import { thClasses, wordWrapTdClasses } from "@/components/ui/sortable-header";
import { TableScroll } from "@/components/ui/table-scroll";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { formatTimestamp } from "@/lib/format";
import {
  AUDIT_PAGE_SIZE,
  type AuditFilters,
  auditLogQuery,
  EMPTY_AUDIT_FILTERS,
} from "../api/audit-log";
import { AuditChange } from "./audit-change";

/** The target kinds, as the filter and the Target column name them. */
const TARGET_KINDS: Record<string, string> = {
  all: "All targets",
  settings: "Settings",
  plan: "Plans",
  package: "Credit packages",
  user: "Users",
  payment: "Payments",
  subscription: "Subscriptions",
  ai_training: "AI training",
  page: "Site pages",
  admin: "Admin account",
  other: "Other",
};

const muted = "text-stone-600 dark:text-stone-400";

/** The target as an operator knows it (an e-mail, a plan's name), its kind, and its id. */
function Target({ entry }: { entry: AuditEntry }) {
  const kind = TARGET_KINDS[entry.targetType] ?? entry.targetType;
  if (!entry.targetId) return <span className={muted}>{kind}</span>;
  return (
    <div className="min-w-0">
      <span className={`block text-xs ${muted}`}>{kind}</span>
      {entry.targetLabel ? (
        <span className="block break-words" data-testid="audit-target-label">
          {entry.targetType === "user" || entry.targetType === "admin" ? (
            <EmailText email={entry.targetLabel} />
          ) : (
            entry.targetLabel
          )}
        </span>
      ) : null}
      <span
        className={`block font-mono text-xs ${muted} ${entry.targetLabel ? "truncate" : "break-all"}`}
        title={entry.targetId}
      >
        {entry.targetId}
      </span>
    </div>
  );
}

/**
 * /admin/audit-log: every admin write, newest first, filtered by admin, action, target and
 * dates; 20 a page. Keys in settings changes are masked by the server.
 */
export function AdminAuditLogPage() {
  useDocumentTitle("Audit Log · Twinline Admin");
  const [draft, setDraft] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS);
  const [page, setPage] = useState(1);
  const log = useQuery(auditLogQuery(filters, page));
  const set = (key: keyof AuditFilters) => (value: string) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setPage(1);
  };

  const rows = log.data?.data ?? [];
  const pagination = log.data?.pagination;
  const first = pagination && pagination.total > 0 ? (page - 1) * AUDIT_PAGE_SIZE + 1 : 0;
  const last = pagination ? Math.min(page * AUDIT_PAGE_SIZE, pagination.total) : 0;

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Audit Log"
        description="Who changed what, when and from where: every admin write."
      />
      <Card className="p-4">
        <form onSubmit={apply} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6 lg:items-end">
          <TextField
            label="Admin (e-mail or ID)"
            value={draft.admin}
            onChange={(event) => set("admin")(event.target.value)}
          />
          <TextField
            label="Action"
            placeholder="payment.refund"
            value={draft.action}
            onChange={(event) => set("action")(event.target.value)}
          />
          <label className="block text-sm font-medium text-stone-700 dark:text-stone-300">
            Target
            <select
              className={`${inputClasses} mt-1.5`}
              value={draft.targetType}
              onChange={(event) => set("targetType")(event.target.value)}
            >
              {["all", ...AUDIT_TARGET_TYPES].map((type) => (
                <option key={type} value={type}>
                  {TARGET_KINDS[type] ?? type}
                </option>
              ))}
            </select>
          </label>
          <TextField
            label="Start Date"
            type="date"
            value={draft.startDate}
            onChange={(event) => set("startDate")(event.target.value)}
          />
          <TextField
            label="End Date"
            type="date"
            value={draft.endDate}
            onChange={(event) => set("endDate")(event.target.value)}
          />
          <button type="submit" className={buttonClasses("primary", "md")}>
            Apply Filters
          </button>
        </form>
      </Card>
      <Card className="overflow-hidden">
        {log.isPending ? (
          <LoadingState label="Loading the audit log" />
        ) : log.isError && !log.data ? (
          <ErrorState message="Failed to load the audit log" onRetry={() => log.refetch()} />
        ) : rows.length === 0 ? (
          <p className="px-6 py-16 text-center text-sm text-stone-600 dark:text-stone-400">
            No audit log entries found
          </p>
        ) : (
          <TableScroll label="Audit log">
            {/* Fixed widths, so the Change column keeps the rest of the line: at 1280 px with the
                sidebar open the table fits without scrolling (narrower screens scroll it). */}
            <table className="w-full min-w-[48rem] table-fixed text-left text-sm">
              <caption className="sr-only">Audit log</caption>
              <colgroup>
                <col className="w-[8.5rem]" />
                <col className="w-[11rem]" />
                <col className="w-[9.5rem]" />
                <col className="w-[12rem]" />
                <col />
              </colgroup>
              <thead>
                <tr>
                  {["Date", "Admin", "Action", "Target", "Change"].map((label) => (
                    <th key={label} scope="col" className={thClasses}>
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100 dark:divide-white/5">
                {rows.map((entry) => (
                  <tr key={entry._id} data-testid="audit-row" className="align-top">
                    <td className={wordWrapTdClasses}>{formatTimestamp(entry.createdAt)}</td>
                    <td className={`${wordWrapTdClasses} break-words`}>
                      <EmailText email={entry.admin.email} />
                      <span className={`block font-mono text-xs ${muted}`} title="IP address">
                        <span className="sr-only">IP </span>
                        {entry.ip}
                      </span>
                    </td>
                    <td
                      className={`${wordWrapTdClasses} font-mono text-xs [overflow-wrap:anywhere]`}
                    >
                      {entry.action}
                    </td>
                    <td className={wordWrapTdClasses}>
                      <Target entry={entry} />
                    </td>
                    <td className={wordWrapTdClasses} data-testid="audit-change">
                      <AuditChange entry={entry} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {pagination && pagination.pages > 1 && (
          <Pager
            page={page}
            pages={pagination.pages}
            onPage={setPage}
            disabled={log.isFetching}
            summary={`Showing ${first} to ${last} of ${pagination.total} entries`}
          />
        )}
      </Card>
    </div>
  );
}

import { useQuery } from "@tanstack/react-query";
import { AUDIT_TARGET_TYPES, type AuditEntry } from "@twinline/contracts";
import { type FormEvent, useState } from "react";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { inputClasses, TextField } from "@/components/ui/field";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { tdClasses, thClasses } from "@/components/ui/sortable-header";
import { TableScroll } from "@/components/ui/table-scroll";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { formatTimestamp } from "@/lib/format";
import {
  AUDIT_PAGE_SIZE,
  type AuditFilters,
  auditLogQuery,
  EMPTY_AUDIT_FILTERS,
} from "../api/audit-log";

const TARGET_LABELS: Record<string, string> = {
  all: "All targets",
  settings: "Settings",
  plan: "Plans",
  package: "Credit packages",
  user: "Users",
  payment: "Payments",
  subscription: "Subscriptions",
  ai_training: "AI training",
  admin: "Admin account",
  other: "Other",
};

function Change({ entry }: { entry: AuditEntry }) {
  if (entry.before == null && entry.after == null) return <>—</>;
  return (
    <details>
      <summary className="cursor-pointer text-brand-700 dark:text-brand-300">
        Before / after
      </summary>
      <div className="mt-2 grid gap-2 lg:grid-cols-2">
        {(["before", "after"] as const).map((side) => (
          <div key={side}>
            <p className="text-xs font-semibold text-stone-500 uppercase">{side}</p>
            <pre className="max-h-64 overflow-auto rounded-lg bg-stone-100 p-2 text-xs whitespace-pre-wrap break-all dark:bg-white/5">
              {entry[side] == null ? "—" : JSON.stringify(entry[side], null, 2)}
            </pre>
          </div>
        ))}
      </div>
    </details>
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
                  {TARGET_LABELS[type] ?? type}
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
            <table className="w-full min-w-[56rem] text-left text-sm">
              <caption className="sr-only">Audit log</caption>
              <thead>
                <tr>
                  {["Date", "Admin", "Action", "Target", "IP", "Change"].map((label) => (
                    <th key={label} scope="col" className={thClasses}>
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100 dark:divide-white/5">
                {rows.map((entry) => (
                  <tr key={entry._id} data-testid="audit-row">
                    <td className={tdClasses}>{formatTimestamp(entry.createdAt)}</td>
                    <td className={`${tdClasses} break-all`}>{entry.admin.email}</td>
                    <td className={`${tdClasses} font-mono text-xs`}>{entry.action}</td>
                    <td className={`${tdClasses} break-all`}>
                      {TARGET_LABELS[entry.targetType] ?? entry.targetType}
                      {entry.targetId ? (
                        <span className="block font-mono text-xs text-stone-500">
                          {entry.targetId}
                        </span>
                      ) : null}
                    </td>
                    <td className={`${tdClasses} font-mono text-xs`}>{entry.ip}</td>
                    <td className={tdClasses}>
                      <Change entry={entry} />
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

import { useQuery } from "@tanstack/react-query";
import { AUDIT_TARGET_TYPES, type AuditEntry } from "@twinline/contracts";
import { type FormEvent, useState } from "react";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { inputClasses, TextField } from "@/components/ui/field";
import { ListPager } from "@/components/ui/list-pager";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { type LogColumn, LogTable, mutedText } from "@/components/ui/log-table";
import { PageHeader } from "@/components/ui/page-header";
import { EmailText } from "@/components/ui/person-cells";
import { wordWrapTdClasses } from "@/components/ui/sortable-header";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { formatTimestamp } from "@/lib/format";
import { type AuditFilters, auditLogQuery, EMPTY_AUDIT_FILTERS } from "../api/audit-log";
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

const AUDIT_COLUMNS: LogColumn[] = [
  { label: "Date", width: "w-[8.5rem]" },
  { label: "Admin", width: "w-[11rem]" },
  { label: "Action", width: "w-[9.5rem]" },
  { label: "Target", width: "w-[12rem]" },
  { label: "Change" },
];

/** The target as an operator knows it (an e-mail, a plan's name), its kind, and its id. */
function Target({ entry }: { entry: AuditEntry }) {
  const kind = TARGET_KINDS[entry.targetType] ?? entry.targetType;
  if (!entry.targetId) return <span className={mutedText}>{kind}</span>;
  return (
    <div className="min-w-0">
      <span className={`block text-xs ${mutedText}`}>{kind}</span>
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
        className={`block font-mono text-xs ${mutedText} ${entry.targetLabel ? "truncate" : "break-all"}`}
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
          <LogTable caption="Audit log" columns={AUDIT_COLUMNS}>
            {rows.map((entry) => (
              <tr key={entry._id} data-testid="audit-row" className="align-top">
                <td className={wordWrapTdClasses}>{formatTimestamp(entry.createdAt)}</td>
                <td className={`${wordWrapTdClasses} break-words`}>
                  <EmailText email={entry.admin.email} />
                  <span className={`block font-mono text-xs ${mutedText}`} title="IP address">
                    <span className="sr-only">IP </span>
                    {entry.ip}
                  </span>
                </td>
                <td className={`${wordWrapTdClasses} font-mono text-xs [overflow-wrap:anywhere]`}>
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
          </LogTable>
        )}
        {pagination && pagination.pages > 1 && (
          <ListPager
            pagination={pagination}
            page={page}
            onPage={setPage}
            disabled={log.isFetching}
            noun="entries"
          />
        )}
      </Card>
    </div>
  );
}

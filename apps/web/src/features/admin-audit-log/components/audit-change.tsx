import type { AuditEntry } from "@twinline/contracts";
import { mutedText } from "@/components/ui/log-table";
import { auditChanges } from "../lib/audit-changes";

// The list shows this many changed fields; the rest are under "Before / after".
const SHOWN_CHANGES = 6;

function Json({ label, value }: { label: string; value: unknown }) {
  return (
    <div>
      <p className={`text-xs font-semibold uppercase ${mutedText}`}>{label}</p>
      {/* Wraps at spaces and, only when a word is longer than the line, inside it: never
          scrolls, so the keyboard needs no way into it. */}
      <pre className="rounded-lg bg-stone-100 p-2 text-xs whitespace-pre-wrap [overflow-wrap:anywhere] text-stone-800 dark:bg-white/5 dark:text-stone-200">
        {value == null ? "—" : JSON.stringify(value, null, 2)}
      </pre>
    </div>
  );
}

/**
 * An entry's change as a short list, `field: before → after` for each field that changed (a
 * create lists what it made as `field: value`, a note such as a refund's reason as it was fed),
 * and the whole
 * JSON of both sides under "Before / after".
 */
export function AuditChange({ entry }: { entry: AuditEntry }) {
  if (entry.before == null && entry.after == null) return <>—</>;
  const changes = auditChanges(entry.before, entry.after);
  const hidden = changes.length - SHOWN_CHANGES;
  return (
    <div className="space-y-1.5">
      {changes.length > 0 ? (
        <ul className="space-y-0.5 text-xs" data-testid="audit-changes">
          {changes.slice(0, SHOWN_CHANGES).map(({ field, before, after }) => (
            <li key={field} className="[overflow-wrap:anywhere]">
              <span className="font-mono font-semibold text-stone-800 dark:text-stone-200">
                {field}
              </span>
              <span className={mutedText}>: </span>
              {before}
              {before !== undefined && after !== undefined ? (
                <span className={mutedText}> → </span>
              ) : null}
              {after !== undefined ? (
                <span className="font-medium text-stone-900 dark:text-stone-100">{after}</span>
              ) : null}
            </li>
          ))}
          {hidden > 0 ? <li className={mutedText}>and {hidden} more</li> : null}
        </ul>
      ) : (
        <p className={`text-xs ${mutedText}`}>No field changed</p>
      )}
      <details>
        <summary className="cursor-pointer text-xs text-brand-700 dark:text-brand-300">
          Before / after
        </summary>
        <div className="mt-2 space-y-2">
          <Json label="Before" value={entry.before} />
          <Json label="After" value={entry.after} />
        </div>
      </details>
    </div>
  );
}

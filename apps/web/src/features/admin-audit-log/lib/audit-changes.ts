/** One line of an audit entry's change: a field, what it was and what it became. */
export interface AuditChange {
  /** The field's path, its keys joined by dots ("apiKeys.openai"); "value" for a bare value. */
  field: string;
  /** undefined when the field was not there (a create, a field added). */
  before?: string;
  /** undefined when the field is gone (a delete, a field removed). */
  after?: string;
}

// A long text (a prompt, a page) is cut in the list; the full value is under "Before / after".
const MAX_VALUE_CHARS = 80;

/** Every leaf of `value` by its dotted path; arrays are leaves (a plan's features read as one). */
function leaves(value: unknown, path: string, into: Map<string, unknown>): Map<string, unknown> {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, each] of Object.entries(value as Record<string, unknown>)) {
      leaves(each, path ? `${path}.${key}` : key, into);
    }
  } else {
    into.set(path || "value", value);
  }
  return into;
}

/** A leaf as one short line: text as it is, anything else as compact JSON. */
export function showValue(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const line = text.replace(/\s+/g, " ");
  return line.length > MAX_VALUE_CHARS ? `${line.slice(0, MAX_VALUE_CHARS - 1)}…` : line;
}

/**
 * What an audit entry changed, field by field (`field: before → after`), leaving out what stayed
 * the same: a settings save lists the two settings it changed, not the whole settings JSON. A
 * field only `before` has is a note the route fed (a refund's reason) and shows as it was.
 */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const was = before == null ? new Map<string, unknown>() : leaves(before, "", new Map());
  const is = after == null ? new Map<string, unknown>() : leaves(after, "", new Map());
  const changes: AuditChange[] = [];
  // With a `before`, the change is about its fields: what the answer carries beside them (a
  // deactivated user's whole account) is not what changed. Without one (a create), all of it is.
  const fields = before == null ? is.keys() : was.keys();
  for (const field of fields) {
    if (field === "_id") continue; // The Target column names it.
    const old = was.has(field) ? showValue(was.get(field)) : undefined;
    const now = is.has(field) ? showValue(is.get(field)) : undefined;
    if (was.has(field) && is.has(field) && isSame(was.get(field), is.get(field))) continue;
    changes.push({
      field,
      ...(old === undefined ? {} : { before: old }),
      ...(now === undefined ? {} : { after: now }),
    });
  }
  return changes;
}

const isSame = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

import { createHash } from "node:crypto";
import pg from "pg";

/** A statement's name: the same text is the same name on every connection (63 bytes at most). */
export function statementName(text: string): string {
  return `tl_${createHash("sha256").update(text).digest("base64url").slice(0, 32)}`;
}

/**
 * node-postgres's client with each parameterized statement named by its text (decision 0090):
 * PostgreSQL parses and analyses a text once per connection and may keep its plan, instead of
 * doing both for every statement, as the PGlite worker does (db/pglite-prepared.ts). Only
 * statements with values are named: a text without them may hold several statements (a
 * migration, a script), which only the simple protocol runs. A table changed under a named
 * statement (another instance's migration) is PostgreSQL's to follow: it analyses the statement
 * again; only a change of the columns it answers is refused, once (below).
 */
export class NamedStatementsClient extends pg.Client {
  /**
   * Texts whose named statement went stale on this connection: another instance's migration
   * changed the columns it answers (a `select *`), which PostgreSQL refuses for a prepared
   * statement (0A000) until it is dropped. They run unnamed from then on: the statement fails
   * once on this connection, never again.
   */
  private readonly stale = new Set<string>();

  // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; this forwards each.
  override query(config: any, values?: any, callback?: any): any {
    const text = statementText(config, values);
    if (text === null || this.stale.has(text)) return super.query(config, values, callback);
    // query("text", [values]) and query({ text, values }) alike, named by the text.
    const named = Object.assign({}, typeof config === "string" ? { text } : config, {
      name: statementName(text),
    });
    const result: unknown = super.query(named, values, callback);
    // A callback's call answers nothing to watch (none of the app's: drizzle and pg-boss await).
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      if ((error as { code?: string }).code === RESULT_TYPE_CHANGED) this.stale.add(text);
      throw error;
    });
  }
}

/** PostgreSQL's "cached plan must not change result type". */
const RESULT_TYPE_CHANGED = "0A000";

/** The text of a statement with values and no name of its own, else null (left as it is). */
// biome-ignore lint/suspicious/noExplicitAny: as query's own arguments.
function statementText(config: any, values: any): string | null {
  if (typeof config === "string") return Array.isArray(values) && values.length > 0 ? config : null;
  if (config === null || typeof config !== "object" || typeof config.submit === "function") {
    return null;
  }
  if (typeof config.text !== "string" || config.name !== undefined) return null;
  return hasValues(config, values) ? config.text : null;
}

function hasValues(config: { values?: unknown }, values: unknown): boolean {
  const given = Array.isArray(values) ? values : config.values;
  return Array.isArray(given) && given.length > 0;
}

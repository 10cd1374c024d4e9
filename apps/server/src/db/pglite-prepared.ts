import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
} from "@electric-sql/pglite";

const { serialize } = protocol;

/** The parsers parseResults looks each column's type up in. */
type ResultParsers = Parameters<typeof parse.parseResults>[1];

/** PostgreSQL's answer when a statement's result columns changed under it (a migration). */
const RESULT_TYPE_CHANGED = "0A000";

interface Prepared {
  name: string;
  /** The type OID of each parameter, as PostgreSQL inferred it when the statement was parsed. */
  paramTypes: number[];
}

export interface PreparedQueries {
  /**
   * Runs `sql` as a named statement of this session. `inTransaction`: the caller holds an open
   * transaction of this session (its statements do not wait for the transaction lock).
   */
  query<T>(
    sql: string,
    params: unknown[],
    options: QueryOptions,
    inTransaction: boolean,
  ): Promise<Results<T>>;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/**
 * PGlite's `query` sends every statement unnamed, in six calls into the WASM backend (parse,
 * describe, bind, describe, execute, sync): each statement is parsed, analysed and planned again
 * every time, which was most of a chat send's database time. Here each statement text is parsed
 * once per session as a named statement (PostgreSQL then reuses its analysis, and its plan once
 * a generic plan is as good), and each run after that is one call: bind, describe, execute and
 * sync together. The `capacity` most recently used statements are kept; older ones are closed.
 * Results are parsed by PGlite's own parser, with the same serializers and parsers as `query`.
 */
let caches = 0;

export function createPreparedQueries(db: PGlite, capacity = 500): PreparedQueries {
  const statements = new Map<string, Prepared>();
  // Names of this cache's own (another cache on the same session never takes one of them).
  const prefix = `twinline_${++caches}_`;
  let nextName = 0;
  const run = (message: Uint8Array) => db.execProtocolStream(message, { syncToFs: false });

  // PGlite's parseResults merges `db.parsers` with the statement's own parsers by spreading
  // both into a new object for every statement; once PGlite has loaded the array types that is
  // 300-odd keys, ~0.1 ms a statement on the database thread (a chat send's six statements:
  // about a tenth of its time there). An object whose prototype is `db.parsers` holds only the
  // statement's own: the same lookups, nothing copied, and PGlite's later changes to its
  // parsers still seen. Kept per parsers object: the worker passes the same one for the same
  // types (pglite-worker.ts).
  const merged = new WeakMap<object, ResultParsers>();
  const parsersFor = (options: QueryOptions): ResultParsers => {
    const own = options.parsers;
    if (!own) return db.parsers;
    let parsers = merged.get(own);
    if (!parsers) {
      parsers = Object.assign(Object.create(db.parsers) as ResultParsers, own);
      merged.set(own, parsers);
    }
    return parsers;
  };

  const prepare = async (sql: string): Promise<Prepared> => {
    const name = `${prefix}${++nextName}`;
    const described = await run(
      concat([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
    );
    const prepared = { name, paramTypes: parse.parseDescribeStatementResults(described) };
    statements.set(sql, prepared);
    if (statements.size > capacity) {
      const [oldestSql, oldest] = statements.entries().next().value as [string, Prepared];
      statements.delete(oldestSql);
      await run(concat([serialize.close({ type: "S", name: oldest.name }), serialize.sync()]));
    }
    return prepared;
  };

  const execute = async <T>(
    sql: string,
    params: unknown[],
    options: QueryOptions,
  ): Promise<Results<T>> => {
    let prepared = statements.get(sql);
    if (prepared) {
      // Most recently used last: the first entry is the one to close when full.
      statements.delete(sql);
      statements.set(sql, prepared);
    } else {
      prepared = await prepare(sql);
    }
    const { name, paramTypes } = prepared;
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const type = paramTypes[index] ?? 0;
      const serializer = options.serializers?.[type] ?? db.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await run(
      concat([
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    return parse.parseResults(messages, parsersFor(options), {
      rowMode: options.rowMode,
    })[0] as Results<T>;
  };

  const withContext = (error: unknown, sql: string, params: unknown[]): unknown => {
    // As PGlite's query does: the statement goes with its error (logged, never answered).
    if (error instanceof Error) Object.assign(error, { query: sql, params });
    return error;
  };

  return {
    async query<T>(sql: string, params: unknown[], options: QueryOptions, inTransaction: boolean) {
      const once = () => db._runExclusiveQuery(() => execute<T>(sql, params, options));
      const attempt = async (): Promise<Results<T>> => {
        try {
          return await once();
        } catch (error) {
          if ((error as { code?: string }).code !== RESULT_TYPE_CHANGED || inTransaction) {
            throw error;
          }
          // The table changed under the statement: parsed again, once (a transaction's
          // statement cannot be retried: the error ended the transaction).
          statements.delete(sql);
          return once();
        }
      };
      try {
        if (inTransaction) return await attempt();
        await db._checkReady();
        const result = await db._runExclusiveTransaction(attempt);
        await db.syncToFs();
        return result;
      } catch (error) {
        if ((error as { code?: string }).code === RESULT_TYPE_CHANGED) statements.delete(sql);
        throw withContext(error, sql, params);
      }
    },
  };
}

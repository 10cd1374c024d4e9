import type {
  AdminJob,
  AdminJobsQuery,
  AdminQueueSummary,
  JobFilter,
  JobState,
} from "@twinline/contracts";
import type PgBoss from "pg-boss";
import { type PageRequest, pageOffset, pagination } from "../paging.ts";
import { deadLetterOf, JOBS_SCHEMA } from "./queue-names.ts";

/** Which states each filter of the panel shows. */
const FILTER_STATES: Record<JobFilter, readonly JobState[]> = {
  all: ["created", "retry", "active", "completed", "cancelled", "failed"],
  queued: ["created", "retry"],
  running: ["active"],
  failed: ["failed"],
};

interface JobRow {
  id: string;
  name: string;
  state: JobState;
  retry_count: number;
  retry_limit: number;
  created_on: Date | string;
  started_on: Date | string | null;
  completed_on: Date | string | null;
  error: string | null;
}

const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

const toJob = (row: JobRow): AdminJob => ({
  _id: row.id,
  queue: row.name,
  state: row.state,
  retryCount: Number(row.retry_count),
  retryLimit: Number(row.retry_limit),
  createdAt: new Date(row.created_on).toISOString(),
  startedAt: iso(row.started_on),
  completedAt: iso(row.completed_on),
  error: row.error,
});

// The message of our own failures ({ message }) and of pg-boss's ({ value: { message } }).
const JOB_COLUMNS = `id, name, state, retry_count, retry_limit, created_on, started_on, completed_on,
  COALESCE(output->>'message', output->'value'->>'message') AS error`;

/**
 * What the admin's Jobs panel reads (docs/decisions/0072), straight from pg-boss's job table:
 * it holds the live jobs only (pg-boss archives completed ones after a day), so it stays small.
 * `queues` are the defined jobs; their dead-letter queues are counted, never listed as work.
 */
export function createJobBoard(db: PgBoss.Db, queues: () => readonly string[]) {
  const states = (filter: JobFilter) => [...FILTER_STATES[filter]];
  const worked = () => [...queues()];

  return {
    async list(query: AdminJobsQuery & PageRequest) {
      const names = worked();
      const [counted, listed] = await Promise.all([
        db.executeSql(
          `SELECT count(*)::int AS total FROM ${JOBS_SCHEMA}.job
            WHERE name = ANY($1::text[]) AND state::text = ANY($2::text[])`,
          [names, states(query.state)],
        ),
        db.executeSql(
          `SELECT ${JOB_COLUMNS} FROM ${JOBS_SCHEMA}.job
            WHERE name = ANY($1::text[]) AND state::text = ANY($2::text[])
            ORDER BY created_on DESC, id LIMIT $3 OFFSET $4`,
          [names, states(query.state), query.limit, pageOffset(query)],
        ),
      ]);
      const total = Number(counted.rows[0]?.total ?? 0);
      return {
        data: (listed.rows as JobRow[]).map(toJob),
        pagination: pagination(total, query),
        queues: await this.summary(),
      };
    },

    /** Per defined job: queued, running, failed and dead-lettered counts (also for metrics). */
    async summary(): Promise<AdminQueueSummary[]> {
      const names = worked();
      const { rows } = await db.executeSql(
        `SELECT name, state::text AS state, count(*)::int AS count FROM ${JOBS_SCHEMA}.job
          WHERE name = ANY($1::text[]) GROUP BY name, state`,
        [[...names, ...names.map(deadLetterOf)]],
      );
      const count = (name: string, wanted: readonly string[]) =>
        (rows as Array<{ name: string; state: string; count: number }>)
          .filter((row) => row.name === name && wanted.includes(row.state))
          .reduce((sum, row) => sum + Number(row.count), 0);
      return names.map((queue) => ({
        queue,
        queued: count(queue, FILTER_STATES.queued),
        running: count(queue, FILTER_STATES.running),
        failed: count(queue, FILTER_STATES.failed),
        deadLettered: count(deadLetterOf(queue), FILTER_STATES.all),
      }));
    },

    async get(id: string): Promise<AdminJob | null> {
      const { rows } = await db.executeSql(
        `SELECT ${JOB_COLUMNS} FROM ${JOBS_SCHEMA}.job WHERE id = $1 AND name = ANY($2::text[])`,
        [id, worked()],
      );
      const row = rows[0] as JobRow | undefined;
      return row ? toJob(row) : null;
    },
  };
}

export type JobBoard = ReturnType<typeof createJobBoard>;

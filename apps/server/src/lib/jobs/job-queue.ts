import type { AdminJob } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import PgBoss from "pg-boss";
import type { Clock } from "../clock.ts";
import { occurrenceJobId, tickOnCron } from "./cron-ticks.ts";
import { createJobBoard, type JobBoard } from "./job-board.ts";
import { deadLetterOf, JOBS_SCHEMA } from "./queue-names.ts";

/** How a job is run and retried. */
export interface JobOptions {
  /**
   * A cron expression (UTC; 5 fields, or 6 with seconds): the job is enqueued once per
   * occurrence across every instance, then run at once. Without it the job runs when sent.
   */
  cron?: string;
  /** The clock its occurrences are read on (default the queue's: the billing clock). */
  clock?: Clock;
  /** Retries after the first failure, before the job goes to its dead-letter queue (3). */
  retryLimit?: number;
  /** Wait before the first retry (30 s); doubled at each retry when `retryBackoff`. */
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** An attempt running longer (or whose instance died) is failed and retried (15 min). */
  expireInSeconds?: number;
  /**
   * "short": at most one queued job per `singletonKey` (a send while one waits does nothing),
   * so a burst of sends makes one run; one more may queue while it runs. Default "standard".
   */
  policy?: "standard" | "short";
}

/** How one job is sent. */
export interface SendOptions {
  /** With the "short" policy: the key of which one job at most waits in the queue. */
  singletonKey?: string;
}

/**
 * When a job sent now may start: a second back, so that it is due at once. pg-boss fetches jobs
 * whose start is strictly before now(), and PGlite's clock counts whole milliseconds, so a job
 * sent with the default start (now()) and fetched within the same millisecond was skipped until
 * the next poll or tick (a sweep left a claim for a whole period). An interval, not a date: it is
 * read on the database's clock, whatever this machine's says.
 */
const DUE_NOW = "-1";

/** Jobs claimed per fetch by `runDue` (each still runs and completes on its own). */
const FETCH_BATCH = 10;

export type JobHandler<T> = (data: T) => Promise<unknown>;

/** A retry asked of a job that has not failed (it is queued, running or done). */
export class JobNotRetryableError extends Error {}

export interface JobQueueOptions {
  /** Its `settled()`, when given, is awaited at stop: pg-boss's last statements are done first. */
  db: PgBoss.Db & { settled?(): Promise<void> };
  /** The clock of the scheduled jobs' occurrences (tests pass a manual one). */
  clock: Clock;
  log: FastifyBaseLogger;
  /**
   * Poll the queues of jobs sent on demand (default true). False: nothing runs behind a test's
   * back; it calls `runDue(name)`.
   */
  workers?: boolean;
  /** Told of each failed attempt (the metrics' twinline_job_failures_total). */
  onFailure?: (queue: string) => void;
}

interface Definition {
  name: string;
  handler: JobHandler<unknown>;
  options: JobOptions;
}

/** Durable background work on pg-boss (docs/decisions/0072). */
export interface JobQueue {
  /**
   * Registers a job: one line per job, before the app is ready.
   *   app.jobs.define("mail.fan-emails", sendFanEmails, { retryLimit: 5 });
   *   app.jobs.define("billing.renewals", () => renewals.sweep(), { cron: "*\/5 * * * *" });
   */
  define<T>(name: string, handler: JobHandler<T>, options?: JobOptions): void;
  /**
   * Enqueues a job (durable: it survives a crash of this instance); answers its id, or null
   * when its singleton key already has one waiting.
   */
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Runs, in this instance, every job of `name` due now; answers how many ran. */
  runDue(name: string): Promise<number>;
  /** Fails and retries attempts that outlived their expiry (pg-boss's maintenance, on demand). */
  maintain(): Promise<void>;
  /** The admin's Jobs panel and the metrics read the queues here (job-board.ts). */
  readonly board: JobBoard;
  /**
   * Queues a failed job again (the admin's retry); answers it, or null when no such job.
   * Throws JobNotRetryableError when the job has not failed.
   */
  retry(id: string): Promise<AdminJob | null>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { clock, log } = options;
  const boss = new PgBoss({
    db: options.db,
    schema: JOBS_SCHEMA,
    migrate: true,
    // Occurrences come from the app's clock (tickOnCron), not pg-boss's own timekeeper.
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: 60,
  });
  boss.on("error", (error) => log.error({ err: error }, "Job queue error"));
  const definitions = new Map<string, Definition>();
  const stopTicks: Array<() => void> = [];
  /** The pg-boss worker of each on-demand job (none when polling is off). */
  const workers = new Map<string, string>();
  const inFlight = new Set<Promise<unknown>>();
  let started = false;
  let stopped = false;

  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => {});
    return work;
  };

  const runOne = async (definition: Definition, job: PgBoss.Job<unknown>) => {
    try {
      await definition.handler(job.data);
    } catch (error) {
      log.error({ err: error, job: definition.name, jobId: job.id }, "Job failed");
      options.onFailure?.(definition.name);
      await boss.fail(definition.name, job.id, failureOutput(error));
      return;
    }
    await boss.complete(definition.name, job.id);
  };

  const runDue = async (name: string): Promise<number> => {
    const definition = definitions.get(name);
    if (!definition) throw new Error(`No job named ${name}`);
    let ran = 0;
    // Bounded: a burst is finished by the next pass, never an endless loop.
    for (let pass = 0; pass < 10 && !stopped; pass += 1) {
      const jobs = await boss.fetch<unknown>(name, { batchSize: FETCH_BATCH });
      for (const job of jobs) await runOne(definition, job);
      ran += jobs.length;
      if (jobs.length < FETCH_BATCH) break;
    }
    return ran;
  };

  const ensureQueues = async () => {
    const existing = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
    for (const { name, options: job } of definitions.values()) {
      const dead = deadLetterOf(name);
      if (!existing.has(dead)) await boss.createQueue(dead, { name: dead });
      const wanted = {
        name,
        policy: job.policy ?? "standard",
        retryLimit: job.retryLimit ?? 3,
        retryDelay: job.retryDelaySeconds ?? 30,
        retryBackoff: job.retryBackoff ?? true,
        expireInSeconds: job.expireInSeconds ?? 15 * 60,
        deadLetter: dead,
      };
      const found = existing.get(name);
      if (!found) await boss.createQueue(name, wanted);
      else if (
        found.policy !== wanted.policy ||
        found.retryLimit !== wanted.retryLimit ||
        found.retryDelay !== wanted.retryDelay ||
        found.retryBackoff !== wanted.retryBackoff ||
        found.expireInSeconds !== wanted.expireInSeconds ||
        found.deadLetter !== wanted.deadLetter
      ) {
        await boss.updateQueue(name, wanted);
      }
    }
  };

  const board = createJobBoard(options.db, () => [...definitions.keys()]);

  return {
    board,
    async retry(id) {
      const job = await board.get(id);
      if (!job) return null;
      if (job.state !== "failed") throw new JobNotRetryableError(`Job ${id} is ${job.state}`);
      await boss.retry(job.queue, id);
      return board.get(id);
    },
    define(name, handler, jobOptions = {}) {
      if (started) throw new Error(`Job ${name} defined after the queue started`);
      if (definitions.has(name)) throw new Error(`Job ${name} is defined twice`);
      definitions.set(name, { name, handler: handler as JobHandler<unknown>, options: jobOptions });
    },
    async send(name, data, sendOptions = {}) {
      if (!definitions.has(name)) throw new Error(`No job named ${name}`);
      const id = await boss.send(name, data, {
        startAfter: DUE_NOW,
        ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
      });
      // This instance's worker looks at once rather than at its next poll.
      const worker = workers.get(name);
      if (worker) boss.notifyWorker(worker);
      return id;
    },
    runDue: (name) => track(runDue(name)),
    async maintain() {
      await boss.maintain();
    },
    async start() {
      if (started) return;
      started = true;
      await boss.start();
      await ensureQueues();
      for (const definition of definitions.values()) {
        const { cron } = definition.options;
        if (cron) {
          stopTicks.push(
            tickOnCron(definition.options.clock ?? clock, cron, (occurrence) =>
              track(tick(definition.name, occurrence)),
            ),
          );
        } else if (options.workers !== false) {
          const worker = await boss.work(
            definition.name,
            { pollingIntervalSeconds: 2 },
            async ([job]) => {
              if (!job) return;
              try {
                await track(definition.handler(job.data));
              } catch (error) {
                log.error({ err: error, job: definition.name, jobId: job.id }, "Job failed");
                options.onFailure?.(definition.name);
                // pg-boss fails the attempt with what is thrown: the message, never a stack.
                throw new JobAttemptFailed(failureOutput(error).message);
              }
            },
          );
          workers.set(definition.name, worker);
        }
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const stop of stopTicks.splice(0)) stop();
      await Promise.allSettled([...inFlight]);
      if (started) await boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
      // A polled job pg-boss began before its stop may still run past it, and pg-boss completes
      // or fails each without awaiting that: the handlers end, pg-boss sends its statement (on
      // the turn after), and it is answered before the database closes right after this.
      await Promise.allSettled([...inFlight]);
      await new Promise((resolve) => setImmediate(resolve));
      await options.db.settled?.();
    },
  };

  /** One occurrence: enqueued once whichever instance ticks first, then run by whoever is free. */
  async function tick(name: string, occurrence: number) {
    if (stopped) return;
    try {
      await boss.send(
        name,
        { at: new Date(occurrence).toISOString() },
        { id: occurrenceJobId(name, occurrence), startAfter: DUE_NOW },
      );
      await runDue(name);
    } catch (error) {
      // The job itself is durable; a tick that could not reach the database is the next one's.
      log.error({ err: error, job: name }, "Scheduled job tick failed");
    }
  }
}

/** A failed attempt as pg-boss keeps it from a worker: the message alone (no stack, no cause). */
class JobAttemptFailed extends Error {
  override stack = "";
}

/** What pg-boss keeps as a failed attempt's output: the message, never a stack. */
function failureOutput(error: unknown): { message: string } {
  const message = error instanceof Error ? error.message : String(error);
  return { message: message.slice(0, 1000) };
}

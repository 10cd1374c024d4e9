import { SECONDS_PER_MINUTE, VOICE_MESSAGES } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../../lib/clock.ts";
import type { VoiceCallRow, VoiceRepository } from "./repository.ts";

const MINUTE_MS = SECONDS_PER_MINUTE * 1000;

export interface MeterEvents {
  /** Once, before the last affordable minute. */
  onWarning(message: string, creditsRemaining: number): void;
  /** A minute could not be paid: the call must end now. */
  onCreditsOut(): void;
  /** The call was closed elsewhere (POST /end, a newer connection, another instance). */
  onClosedElsewhere(): void;
}

/**
 * Charges a live call minute by minute, each as it starts (minute 0 was charged with the call).
 * After each charge, when the balance pays for at most one more minute, it warns once; when a
 * minute cannot be paid, the call ends (docs/decisions/0022-call-metering.md).
 */
export class CallMeter {
  private cancelTimer: (() => void) | undefined;
  private warned = false;
  private stopped = false;
  /** The next minute to charge (1 is the second). */
  private next = 1;
  /** The charge in flight, so a close waits for it. */
  private charging: Promise<void> = Promise.resolve();

  constructor(
    private readonly call: VoiceCallRow,
    private readonly deps: {
      repository: VoiceRepository;
      clock: Clock;
      log: FastifyBaseLogger;
      events: MeterEvents;
    },
  ) {}

  /** Starts metering, given the balance after minute 0. */
  start(balance: number): void {
    this.afterCharge(balance);
    this.schedule(1);
  }

  /** Stops charging; resolves once a charge in flight is done. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    await this.charging;
  }

  /**
   * Charges again after a stop that was a pause (a dropped socket resumed): the minute due
   * meanwhile is charged at once, the later ones as they start.
   */
  async resume(): Promise<void> {
    // A charge in flight at the stop is settled first (a minute charged twice is charged once).
    await this.charging;
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(this.next);
  }

  private schedule(minute: number): void {
    if (this.stopped) return;
    this.next = minute;
    const due = this.call.startedAt.getTime() + minute * MINUTE_MS;
    this.cancelTimer = this.deps.clock.setTimer(
      () => {
        this.charging = this.charge(minute);
        return this.charging;
      },
      Math.max(0, due - this.deps.clock.now()),
    );
  }

  private async charge(minute: number): Promise<void> {
    if (this.stopped) return;
    try {
      const outcome = await this.deps.repository.chargeMinute(this.call, minute);
      if (this.stopped) return;
      if (outcome.kind === "charged") {
        this.afterCharge(outcome.balance);
        this.schedule(minute + 1);
      } else if (outcome.kind === "insufficient") {
        this.stopped = true;
        this.deps.events.onCreditsOut();
      } else {
        this.stopped = true;
        this.deps.events.onClosedElsewhere();
      }
    } catch (error) {
      // The database is unreachable: try again shortly rather than give the minute away.
      this.deps.log.error(
        { err: error, callId: this.call.id, minute },
        "Could not charge a call minute",
      );
      if (!this.stopped) {
        this.cancelTimer = this.deps.clock.setTimer(() => {
          this.charging = this.charge(minute);
          return this.charging;
        }, 2_000);
      }
    }
  }

  private afterCharge(balance: number): void {
    const rate = this.call.creditsPerMinute;
    const furtherMinutes = Math.floor(balance / rate);
    if (!this.warned && furtherMinutes <= 1) {
      this.warned = true;
      this.deps.events.onWarning(VOICE_MESSAGES.creditWarning(furtherMinutes + 1), balance);
    }
  }
}

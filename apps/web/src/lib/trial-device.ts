import {
  TRIAL_DEVICE_HEADER,
  TRIAL_DEVICE_MAX_LENGTH,
  TRIAL_DEVICE_NONE,
} from "@twinline/contracts";
import { extendCalls } from "./api/rules";
import { readStorage, removeStorage, writeStorage } from "./storage";

/**
 * The anonymous trial's device carried in a header (docs/decisions/0089-embed-trial-device.md).
 *
 * The landing page's trial rides on an httpOnly cookie; the embed frame on another site keeps no
 * cookie, so the frame turns this on: every API call then carries the signed device id the
 * server gave it (or `new` before it has one), and the id an answer gives back is kept, in the
 * frame's (partitioned) storage or, where the browser refuses the frame any storage, in the page's
 * memory. The sign-in popup turns it on with the id the frame posts to it, kept in memory only,
 * so its sign-up or login hands the frame's trial over.
 */
export const TRIAL_DEVICE_KEY = "twinlineTrialDevice";

let mode: { persist: boolean; device: string | null } | null = null;

const isDevice = (value: unknown): value is string =>
  typeof value === "string" &&
  value.length > 0 &&
  value.length <= TRIAL_DEVICE_MAX_LENGTH &&
  value !== TRIAL_DEVICE_NONE;

/**
 * From now on, API calls carry the trial's device in the header. `persist`: keep it in this
 * page's storage (the frame); else memory only (the popup). `device`: a known signed id.
 */
export function carryTrialDevice(options: { persist: boolean; device?: string | null }): void {
  const stored = options.persist ? readStorage(TRIAL_DEVICE_KEY) : null;
  const device = isDevice(options.device) ? options.device : isDevice(stored) ? stored : null;
  mode = { persist: options.persist, device };
  if (device && options.persist) writeStorage(TRIAL_DEVICE_KEY, device);
  extendCalls({ header: trialDeviceHeaderOf, answered: noteTrialDevice });
}

function trialDeviceHeaderOf(): [name: string, value: string] {
  return [TRIAL_DEVICE_HEADER, mode?.device ?? TRIAL_DEVICE_NONE];
}

/** The signed device id this page carries, when it carries one. */
export function currentTrialDevice(): string | null {
  return mode?.device ?? null;
}

/** The header API calls carry: none unless carryTrialDevice was called. */
export function trialDeviceHeader(): [name: string, value: string] | null {
  return mode ? trialDeviceHeaderOf() : null;
}

/** Keeps the device an answer names (POST /api/trial/message answers it in the header). */
function noteTrialDevice(headers: Headers): void {
  if (!mode) return;
  const given = headers.get(TRIAL_DEVICE_HEADER);
  if (!isDevice(given) || given === mode.device) return;
  mode.device = given;
  if (mode.persist) writeStorage(TRIAL_DEVICE_KEY, given);
}

/** Back to the cookie (tests). */
export function stopCarryingTrialDevice(): void {
  if (mode?.persist) removeStorage(TRIAL_DEVICE_KEY);
  mode = null;
  extendCalls(null);
}

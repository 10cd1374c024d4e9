import { describe, expect, it } from "vitest";
import {
  createDevicelessFans,
  DEVICELESS_LIMIT,
  forgetDeviceless,
  rememberDeviceless,
} from "./deviceless.ts";

describe("the fans remembered without a device", () => {
  it("remembers a fan asked about under the current generation", () => {
    const known = createDevicelessFans();
    rememberDeviceless(known, "fan-1", known.generation);
    expect(known.fans.has("fan-1")).toBe(true);
  });

  it("forgets every fan when a device is added, and ignores an answer read before it", () => {
    const known = createDevicelessFans();
    rememberDeviceless(known, "fan-1", known.generation);
    const askedAt = known.generation;
    forgetDeviceless(known);
    rememberDeviceless(known, "fan-2", askedAt);
    expect(known.fans.size).toBe(0);
  });

  it("keeps at most DEVICELESS_LIMIT fans, forgetting the oldest first", () => {
    const known = createDevicelessFans();
    for (let i = 0; i <= DEVICELESS_LIMIT; i++) rememberDeviceless(known, `fan-${i}`, 0);
    expect(known.fans.size).toBe(DEVICELESS_LIMIT);
    expect(known.fans.has("fan-0")).toBe(false);
    expect(known.fans.has(`fan-${DEVICELESS_LIMIT}`)).toBe(true);
  });
});

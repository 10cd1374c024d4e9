import { describe, expect, it } from "vitest";
import {
  type CrisisResource,
  crisisResourcesFor,
  DEFAULT_CRISIS_RESOURCES,
} from "./crisis-constants";

// Issue 25 item 2: the resources are shown in the fan's country when it is known, else all.
const names = (resources: CrisisResource[]) => resources.map((resource) => resource.name);

describe("crisisResourcesFor: the fan's country when known, else every resource", () => {
  it("an unknown country shows every resource, in the operator's order", () => {
    expect(crisisResourcesFor(DEFAULT_CRISIS_RESOURCES, null)).toEqual(DEFAULT_CRISIS_RESOURCES);
    expect(crisisResourcesFor(DEFAULT_CRISIS_RESOURCES, undefined)).toEqual(
      DEFAULT_CRISIS_RESOURCES,
    );
  });

  it("a known country shows its own lines and the international ones, whatever the case", () => {
    expect(names(crisisResourcesFor(DEFAULT_CRISIS_RESOURCES, "us"))).toEqual([
      "988 Suicide & Crisis Lifeline",
      "Find a Helpline (international directory)",
    ]);
    // "GB IE" serves both countries.
    for (const country of ["GB", "IE"]) {
      expect(names(crisisResourcesFor(DEFAULT_CRISIS_RESOURCES, country))).toEqual([
        "Samaritans",
        "Find a Helpline (international directory)",
      ]);
    }
  });

  it("a country with no line of its own shows every resource, not the directory alone", () => {
    expect(crisisResourcesFor(DEFAULT_CRISIS_RESOURCES, "FR")).toEqual(DEFAULT_CRISIS_RESOURCES);
  });
});

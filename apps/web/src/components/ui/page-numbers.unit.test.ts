import { describe, expect, it } from "vitest";
import { pageItems } from "./page-numbers";

describe("pageItems", () => {
  it("shows every page when there are few", () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it("shows the current page's neighbours with ellipses for the gaps", () => {
    expect(pageItems(1, 10)).toEqual([1, 2, "ellipsis-end", 10]);
    expect(pageItems(5, 10)).toEqual([1, "ellipsis-start", 4, 5, 6, "ellipsis-end", 10]);
    expect(pageItems(10, 10)).toEqual([1, "ellipsis-start", 9, 10]);
  });

  it("shows a lone missing page instead of an ellipsis", () => {
    expect(pageItems(4, 10)).toEqual([1, 2, 3, 4, 5, "ellipsis-end", 10]);
  });

  it("clamps a page out of range", () => {
    expect(pageItems(50, 3)).toEqual([1, 2, 3]);
    expect(pageItems(0, 0)).toEqual([1]);
  });
});

import { describe, expect, it } from "vitest";
import { csvCell, csvFileName, toCsv } from "./csv";

describe("the CSV encoder", () => {
  it("quotes every cell, doubles quotes and writes N/A for a missing value", () => {
    expect(
      toCsv(
        ["Name", "Note"],
        [
          ['Ann "A"', null],
          ["Bo", ""],
        ],
      ),
    ).toBe('"Name","Note"\r\n"Ann ""A""","N/A"\r\n"Bo","N/A"');
  });

  it.each([
    ['=HYPERLINK("http://x")', '\'=HYPERLINK(""http://x"")'],
    ["+1+1", "'+1+1"],
    ["-1+cmd|' /C calc'!A0", "'-1+cmd|' /C calc'!A0"],
    ["-1+1", "'-1+1"],
    ["-1e3", "'-1e3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["\rx", "'\rx"],
    // Unicode look-alikes a spreadsheet also reads as a formula start.
    ['＝HYPERLINK("http://x")', '\'＝HYPERLINK(""http://x"")'],
    ["＋1", "'＋1"],
    ["－1+1", "'－1+1"],
    ["＠SUM(A1)", "'＠SUM(A1)"],
    ["\u22121+1", "'\u22121+1"],
  ])("neutralises a text cell that starts a formula: %j", (value, expected) => {
    expect(csvCell(value)).toBe(`"${expected}"`);
  });

  it("writes the app's own numbers as they are, negative ones too", () => {
    expect(csvCell(-5)).toBe('"-5"');
    expect(csvCell(19.99)).toBe('"19.99"');
    expect(csvCell(true)).toBe('"true"');
    expect(csvCell("a-b")).toBe('"a-b"');
    expect(csvCell("-5.00")).toBe('"-5.00"');
  });

  it("names the file with the local date", () => {
    expect(csvFileName("chat-logs", new Date(2025, 2, 4))).toBe("chat-logs-2025-03-04.csv");
  });
});

import { describe, expect, it } from "vitest";
import { exportFailureReason, exportFailureWarner } from "./export-failures.ts";

describe("exportFailureWarner", () => {
  it("warns at once, then at most once per interval, counting the failures in between", () => {
    let now = 1_000;
    const warnings: Array<Record<string, unknown>> = [];
    const failed = exportFailureWarner({
      endpoint: "https://user:s3cret-pass@otel.example.com:4318/base?token=abc",
      warn: (fields) => warnings.push(fields),
      now: () => now,
      intervalMs: 60_000,
    });
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:4318"), {
      code: "ECONNREFUSED",
    });
    failed(refused);
    now += 10_000;
    failed(refused);
    now += 10_000;
    failed(refused);
    expect(warnings).toEqual([
      { endpoint: "https://otel.example.com:4318", reason: "ECONNREFUSED", failedExports: 1 },
    ]);
    now += 50_000; // 70 s after the first warning
    failed(Object.assign(new Error("Unauthorized: key sk-live-123 refused"), { code: 401 }));
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toEqual({
      endpoint: "https://otel.example.com:4318",
      reason: "HTTP 401",
      failedExports: 3,
    });
    expect(JSON.stringify(warnings)).not.toMatch(/s3cret|sk-live|token=abc|user/);
  });

  it("names a failure by its status or network code, never by its message", () => {
    expect(exportFailureReason(Object.assign(new Error("x"), { code: 503 }))).toBe("HTTP 503");
    expect(exportFailureReason(Object.assign(new Error("y"), { code: "ENOTFOUND" }))).toBe(
      "ENOTFOUND",
    );
    expect(exportFailureReason(new Error("Request Timeout after 10000ms"))).toBe("timeout");
    expect(exportFailureReason(new Error("secret sk-abc in the body"))).toBe("export failed");
    expect(exportFailureReason(undefined)).toBe("export failed");
  });
});

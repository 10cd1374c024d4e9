import { RefreshCw, TriangleAlert } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { StatusLayout } from "./status-layout";

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  if (error && typeof error === "object") {
    const { status, statusText, data } = error as {
      status?: unknown;
      statusText?: unknown;
      data?: unknown;
    };
    if (typeof status === "number") {
      return [status, statusText, typeof data === "string" ? data : ""].filter(Boolean).join(" ");
    }
  }
  return "Unknown error";
}

/** The generic error screen: what went wrong and a Refresh Page button. */
export function ErrorScreen({ error }: { error: unknown }) {
  return (
    <StatusLayout testId="error-screen">
      <div className="mx-auto flex size-16 items-center justify-center rounded-2xl bg-brand-100 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
        <TriangleAlert aria-hidden="true" className="size-8" />
      </div>
      <h1 className="mt-6 font-display text-2xl font-bold text-stone-900 sm:text-3xl dark:text-white">
        Something went wrong
      </h1>
      <p className="mt-3 text-stone-600 dark:text-stone-300">Please try refreshing the page</p>
      <pre className="mt-6 max-h-40 overflow-auto rounded-xl border border-stone-200 bg-white/80 p-4 text-left font-mono text-sm break-words whitespace-pre-wrap text-stone-700 dark:border-white/10 dark:bg-white/5 dark:text-stone-300">
        {describeError(error)}
      </pre>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className={buttonClasses("primary", "md", "mt-8")}
      >
        <RefreshCw aria-hidden="true" className="size-4" />
        Refresh Page
      </button>
    </StatusLayout>
  );
}

import { clsx } from "clsx";
import { LoaderCircle } from "lucide-react";
import { useEffect, useState } from "react";
import { LOADING_INDICATOR_DELAY_MS } from "@/lib/constants";

interface SpinnerProps {
  label?: string;
  className?: string;
  /** Nothing shows before this many milliseconds (spec: 100 ms), so fast loads never flash. */
  delayMs?: number;
}

export function Spinner({
  label = "Loading",
  className,
  delayMs = LOADING_INDICATOR_DELAY_MS,
}: SpinnerProps) {
  const [visible, setVisible] = useState(delayMs <= 0);
  useEffect(() => {
    if (delayMs <= 0) return;
    const timer = setTimeout(() => setVisible(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  if (!visible) return null;
  return (
    <span role="status" className={clsx("inline-flex items-center gap-2", className)}>
      <LoaderCircle aria-hidden="true" className="size-6 animate-spin text-brand-500" />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A full-screen centred spinner for route and app loading. */
export function PageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner />
    </div>
  );
}

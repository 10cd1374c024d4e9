import { clsx } from "clsx";
import { Check, LoaderCircle } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";

/** The primary save button: a spinner while saving, a tick for 3 s after. */
export function SaveButton({
  saving,
  saved,
  label,
  className,
}: {
  saving: boolean;
  saved: boolean;
  label: string;
  className?: string;
}) {
  return (
    <button
      type="submit"
      disabled={saving}
      className={buttonClasses("primary", "md", clsx("w-full sm:w-auto", className))}
    >
      {saving ? (
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      ) : saved ? (
        <Check aria-hidden="true" className="size-4" />
      ) : null}
      {saving ? "Saving..." : saved ? "Saved" : label}
    </button>
  );
}

export { Toggle } from "@/components/ui/toggle";

import { LoaderCircle, Plus, RefreshCw } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";

/** Sync with Stripe for plans or packages: a spinner while it runs, and no second click. */
export function SyncButton({
  label,
  pending,
  onSync,
}: {
  label: string;
  pending: boolean;
  onSync: () => void;
}) {
  return (
    <button
      type="button"
      onClick={onSync}
      disabled={pending}
      className={buttonClasses("secondary", "md")}
    >
      {pending ? (
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      ) : (
        <RefreshCw aria-hidden="true" className="size-4" />
      )}
      {label}
    </button>
  );
}

/** Opens the add dialog of a plan or package. */
export function AddButton({ label, onAdd }: { label: string; onAdd: () => void }) {
  return (
    <button type="button" onClick={onAdd} className={buttonClasses("primary", "md")}>
      <Plus aria-hidden="true" className="size-4" />
      {label}
    </button>
  );
}

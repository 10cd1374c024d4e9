import { useId } from "react";

/**
 * The box the fan must tick before paying (issue 26, item 3): unticked at first; its words are
 * the consent text of packages/contracts, the same the server stores with its version.
 */
export function ConsentCheckbox({
  text,
  checked,
  onCheckedChange,
  disabled,
}: {
  text: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div
      data-testid="consent"
      className="flex items-start gap-3 rounded-xl border border-stone-200 bg-stone-50 p-3.5 text-sm dark:border-white/10 dark:bg-white/5"
    >
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onCheckedChange(event.target.checked)}
        className="mt-0.5 size-4 shrink-0 accent-brand-600"
      />
      <label htmlFor={id} className="text-stone-800 dark:text-stone-200">
        {text}
      </label>
    </div>
  );
}

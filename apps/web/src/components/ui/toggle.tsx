/** A labelled on/off switch (a checkbox underneath, so Space toggles it). */
export function Toggle({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex cursor-pointer items-start justify-between gap-4 rounded-xl border border-stone-200 p-3.5 dark:border-white/10">
      <span className="min-w-0">
        <span className="block text-sm font-medium text-stone-800 dark:text-stone-200">
          {label}
        </span>
        {description ? (
          <span className="mt-0.5 block text-xs text-stone-500 dark:text-stone-400">
            {description}
          </span>
        ) : null}
      </span>
      <span className="relative inline-flex shrink-0">
        <input
          type="checkbox"
          role="switch"
          aria-checked={checked}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          // Over the drawn switch, invisible: a click on the switch lands on the control itself.
          className="peer absolute inset-0 z-10 size-full cursor-pointer appearance-none opacity-0"
        />
        <span
          aria-hidden="true"
          className="h-6 w-11 rounded-full bg-stone-300 transition peer-checked:bg-brand-600 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500 dark:bg-white/20 dark:peer-checked:bg-brand-500"
        />
        <span
          aria-hidden="true"
          className="absolute top-0.5 left-0.5 size-5 rounded-full bg-white shadow transition peer-checked:translate-x-5"
        />
      </span>
    </label>
  );
}

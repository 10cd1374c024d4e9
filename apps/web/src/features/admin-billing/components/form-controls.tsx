import { type ComponentPropsWithRef, type ReactNode, useId } from "react";
import { inputClasses } from "@/components/ui/field";

/** A labelled select with the form inputs' look. */
export function SelectField({
  label,
  children,
  hint,
  ...select
}: { label: string; children: ReactNode; hint?: string } & ComponentPropsWithRef<"select">) {
  const id = useId();
  return (
    <div>
      <label
        htmlFor={id}
        className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
      >
        {label}
      </label>
      <select id={id} className={inputClasses} {...select}>
        {children}
      </select>
      {hint ? <p className="mt-1.5 text-xs text-stone-500 dark:text-stone-400">{hint}</p> : null}
    </div>
  );
}

/** A labelled textarea. */
export function TextAreaField({
  label,
  hint,
  ...area
}: { label: string; hint?: string } & ComponentPropsWithRef<"textarea">) {
  const id = useId();
  return (
    <div>
      <label
        htmlFor={id}
        className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
      >
        {label}
      </label>
      <textarea id={id} rows={3} className={`${inputClasses} h-auto py-2.5`} {...area} />
      {hint ? <p className="mt-1.5 text-xs text-stone-500 dark:text-stone-400">{hint}</p> : null}
    </div>
  );
}

/** A labelled checkbox. */
export function CheckboxField({
  label,
  ...input
}: { label: string } & Omit<ComponentPropsWithRef<"input">, "type">) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        className="size-4 rounded border-stone-300 accent-brand-600"
        {...input}
      />
      <label htmlFor={id} className="text-sm font-medium text-stone-800 dark:text-stone-200">
        {label}
      </label>
    </div>
  );
}

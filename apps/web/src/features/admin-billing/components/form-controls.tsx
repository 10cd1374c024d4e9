import { CURRENCIES } from "@twinline/contracts";
import { type ComponentProps, type ComponentPropsWithRef, type ReactNode, useId } from "react";
import { inputClasses, TextField } from "@/components/ui/field";

export interface Option {
  value: string;
  label: string;
}

/** A control under its label, with an optional hint below. */
function Labelled({
  id,
  label,
  hint,
  children,
}: {
  id: string;
  label: string;
  hint: string | undefined;
  children: ReactNode;
}) {
  return (
    <div>
      <label
        htmlFor={id}
        className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
      >
        {label}
      </label>
      {children}
      {hint ? <p className="mt-1.5 text-xs text-stone-500 dark:text-stone-400">{hint}</p> : null}
    </div>
  );
}

/** A labelled select of `options`, with the form inputs' look. */
export function SelectField({
  label,
  options,
  hint,
  ...select
}: { label: string; options: readonly Option[]; hint?: string } & Omit<
  ComponentPropsWithRef<"select">,
  "children"
>) {
  const id = useId();
  return (
    <Labelled id={id} label={label} hint={hint}>
      <select id={id} className={inputClasses} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Labelled>
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
    <Labelled id={id} label={label} hint={hint}>
      <textarea id={id} rows={3} className={`${inputClasses} h-auto py-2.5`} {...area} />
    </Labelled>
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

/** The price of a plan or package: a number with cents, never negative. */
export function PriceField(input: Omit<ComponentProps<typeof TextField>, "label" | "type">) {
  return <TextField label="Price" type="number" min={0} step={0.01} {...input} />;
}

const CURRENCY_OPTIONS: Option[] = CURRENCIES.map((c) => ({ value: c, label: c.toUpperCase() }));

/** The currency of a plan or package, one of the contract's. */
export function CurrencyField(select: Omit<ComponentPropsWithRef<"select">, "children">) {
  return <SelectField label="Currency" options={CURRENCY_OPTIONS} {...select} />;
}

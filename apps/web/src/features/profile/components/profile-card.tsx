import { type ReactNode, useId } from "react";

/** One section of the profile screen: icon, title, description, content. */
export function ProfileCard({
  icon,
  title,
  description,
  children,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="rounded-3xl border border-stone-200 bg-white p-5 sm:p-7 dark:border-white/10 dark:bg-stone-900"
    >
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-2xl bg-brand-100 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
          {icon}
        </span>
        <div>
          <h2 id={id} className="font-display text-lg font-bold text-stone-900 dark:text-white">
            {title}
          </h2>
          <p className="text-sm text-stone-600 dark:text-stone-400">{description}</p>
        </div>
      </div>
      <div className="mt-6">{children}</div>
    </section>
  );
}

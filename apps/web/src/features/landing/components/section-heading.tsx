import type { ReactNode } from "react";

export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
}: {
  id: string;
  eyebrow: string;
  title: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-widest text-brand-700 uppercase dark:text-brand-300">
        {eyebrow}
      </p>
      <h2
        id={id}
        className="mt-3 font-display text-3xl font-extrabold tracking-tight text-balance text-stone-900 sm:text-4xl dark:text-white"
      >
        {title}
      </h2>
      {children ? (
        <p className="mt-4 text-lg text-pretty text-stone-600 dark:text-stone-300">{children}</p>
      ) : null}
    </div>
  );
}

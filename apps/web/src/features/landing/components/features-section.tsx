import { useSettings } from "@/lib/settings";
import { FEATURES } from "../content";
import { SectionHeading } from "./section-heading";

/** The grid of six features. */
export function FeaturesSection() {
  const { settings } = useSettings();
  return (
    <section
      id="features"
      aria-labelledby="features-title"
      className="bg-stone-50 py-20 sm:py-28 dark:bg-stone-900/60"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="features-title"
          eyebrow="Features"
          title="Everything you need to feel close"
        >
          Text or talk, day or night: {settings.aiProfile.name} is ready when you are.
        </SectionHeading>
        <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, description }) => (
            <li
              key={title}
              data-testid="feature-card"
              className="group rounded-3xl border border-stone-200 bg-white p-6 shadow-sm transition hover:-translate-y-1 hover:border-brand-200 hover:shadow-xl hover:shadow-brand-900/5 sm:p-7 dark:border-white/10 dark:bg-stone-900 dark:hover:border-brand-400/40"
            >
              <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 transition group-hover:bg-gradient-to-br group-hover:from-brand-500 group-hover:to-orange-400 group-hover:text-white dark:bg-brand-500/15 dark:text-brand-300">
                <Icon aria-hidden="true" className="size-6" />
              </span>
              <h3 className="mt-5 font-display text-lg font-bold text-stone-900 dark:text-white">
                {title}
              </h3>
              <p className="mt-2 leading-relaxed text-stone-600 dark:text-stone-300">
                {description.replace("{free}", String(settings.freeMessagesPerDay))}
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

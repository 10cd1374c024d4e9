import { ArrowRight } from "lucide-react";
import { AppLink } from "@/lib/navigation";
import { useSettings } from "@/lib/settings";
import { SIGNUP_PATH } from "../content";

/** Closing call to action. */
export function CtaSection() {
  const { settings } = useSettings();
  return (
    <section aria-labelledby="cta-title" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="relative overflow-hidden rounded-[2rem] bg-gradient-to-br from-brand-600 via-rose-600 to-orange-500 px-6 py-14 text-center shadow-2xl shadow-brand-900/20 sm:px-12">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -top-20 -right-20 size-72 rounded-full bg-white/15 blur-2xl"
          />
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -bottom-24 -left-16 size-72 rounded-full bg-amber-300/25 blur-2xl"
          />
          <h2
            id="cta-title"
            className="relative font-display text-3xl font-extrabold tracking-tight text-balance text-white sm:text-4xl"
          >
            Ready to say hello to {settings.aiProfile.name}?
          </h2>
          <p className="relative mx-auto mt-4 max-w-xl text-lg text-white/90">
            Create a free account and your first messages are on the house.
          </p>
          <AppLink
            to={SIGNUP_PATH}
            className="relative mt-8 inline-flex h-12 items-center justify-center gap-2 rounded-full bg-white px-6 font-semibold text-brand-700 shadow-lg transition hover:bg-brand-50 focus-visible:outline-white"
          >
            Create your free account
            <ArrowRight aria-hidden="true" className="size-5" />
          </AppLink>
        </div>
      </div>
    </section>
  );
}

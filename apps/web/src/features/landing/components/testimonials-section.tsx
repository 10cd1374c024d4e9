import { Quote, Star } from "lucide-react";
import { TESTIMONIALS } from "../content";
import { SectionHeading } from "./section-heading";

function FiveStars() {
  return (
    <div role="img" aria-label="5 out of 5 stars" className="flex gap-0.5">
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          data-testid="star"
          aria-hidden="true"
          className="size-5 fill-amber-400 text-amber-400"
        />
      ))}
    </div>
  );
}

/** Three five-star testimonials, attributed by description only. */
export function TestimonialsSection() {
  return (
    <section
      id="testimonials"
      aria-labelledby="testimonials-title"
      className="bg-stone-50 py-20 sm:py-28 dark:bg-stone-900/60"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading id="testimonials-title" eyebrow="Testimonials" title="Loved by fans">
          What members say after their first few conversations.
        </SectionHeading>
        <ul className="mt-14 grid gap-5 md:grid-cols-3">
          {TESTIMONIALS.map((testimonial) => (
            <li key={testimonial.attribution} data-testid="testimonial">
              <figure className="flex h-full flex-col rounded-3xl border border-stone-200 bg-white p-6 shadow-sm sm:p-7 dark:border-white/10 dark:bg-stone-900">
                <div className="flex items-center justify-between">
                  <FiveStars />
                  <Quote
                    aria-hidden="true"
                    className="size-7 text-brand-200 dark:text-brand-500/40"
                  />
                </div>
                <blockquote className="mt-5 flex-1 text-lg leading-relaxed text-stone-700 dark:text-stone-200">
                  <p>“{testimonial.quote}”</p>
                </blockquote>
                <figcaption className="mt-6 border-t border-stone-100 pt-4 dark:border-white/10">
                  <span className="block font-semibold text-stone-900 dark:text-white">
                    {testimonial.attribution}
                  </span>
                  <span className="text-sm text-stone-600 dark:text-stone-400">
                    {testimonial.detail}
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

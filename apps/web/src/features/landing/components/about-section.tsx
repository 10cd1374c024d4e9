import { Clock, Heart, Mic } from "lucide-react";
import { useSettings } from "@/lib/settings";

const HIGHLIGHTS = [
  { icon: Clock, value: "24/7", label: "always available" },
  { icon: Mic, value: "Live", label: "voice conversations" },
  { icon: Heart, value: "1:1", label: "just you and them" },
];

/** What the AI twin is. */
export function AboutSection() {
  const { settings } = useSettings();
  const { name } = settings.aiProfile;
  return (
    <section id="about" aria-labelledby="about-title" className="py-20 sm:py-28">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2">
        <div>
          <p className="text-sm font-semibold tracking-widest text-brand-600 uppercase dark:text-brand-300">
            About
          </p>
          <h2
            id="about-title"
            className="mt-3 font-display text-3xl font-extrabold tracking-tight text-balance text-stone-900 sm:text-4xl dark:text-white"
          >
            More than a chatbot. A twin that talks like them.
          </h2>
          <div className="mt-6 space-y-4 text-lg leading-relaxed text-stone-600 dark:text-stone-300">
            <p>
              {name} is the official AI twin of the creator you follow, shaped by their own stories,
              humour and way of talking, so every conversation feels personal rather than generic.
            </p>
            <p>
              Send a message whenever something is on your mind, or start a live voice call and hear
              a reply within seconds. Your conversations stay with your account, so you can pick up
              right where you left off.
            </p>
          </div>
        </div>
        <ul className="grid gap-4 sm:grid-cols-3 lg:grid-cols-1 xl:grid-cols-3">
          {HIGHLIGHTS.map(({ icon: Icon, value, label }) => (
            <li
              key={label}
              className="flex items-center gap-4 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm xl:flex-col xl:items-start dark:border-white/10 dark:bg-white/5"
            >
              <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-brand-500 to-orange-400 text-white">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <span>
                <span className="block font-display text-2xl font-extrabold text-stone-900 dark:text-white">
                  {value}
                </span>
                <span className="text-sm text-stone-600 dark:text-stone-400">{label}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

import { MessageCircle, Phone, ShieldCheck, Sparkles } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { UserAvatar } from "@/components/ui/user-avatar";
import { useAuth } from "@/lib/auth/auth-provider";
import { AppLink } from "@/lib/navigation";
import { useSettings } from "@/lib/settings";
import { FALLBACK_PROMOTIONAL_MESSAGE, type OpenAuth } from "../content";

/**
 * Hero: the persona's name, picture and promotional message, with Start Chat and Voice Call
 * (to /dashboard/chat and /dashboard/call when logged in, else opening the login modal).
 */
export function HeroSection({ onOpenAuth }: { onOpenAuth: OpenAuth }) {
  const { settings } = useSettings();
  const { isAuthenticated } = useAuth();
  const { name, aiProfileImage, promotionalMessage } = settings.aiProfile;
  const message = promotionalMessage.trim() || FALLBACK_PROMOTIONAL_MESSAGE;

  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white pt-28 pb-16 sm:pt-36 sm:pb-24 dark:from-stone-900 dark:via-stone-950 dark:to-stone-950"
    >
      <div aria-hidden="true" className="pointer-events-none absolute inset-0">
        <div className="absolute -top-24 -left-24 size-96 rounded-full bg-brand-300/40 blur-3xl dark:bg-brand-600/25" />
        <div className="absolute top-40 -right-24 size-96 rounded-full bg-amber-200/60 blur-3xl dark:bg-orange-500/15" />
      </div>

      <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-[1.1fr_0.9fr] lg:gap-16">
        <div className="animate-fade-up text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white/70 px-3 py-1 text-sm font-medium text-brand-700 shadow-sm dark:border-brand-400/30 dark:bg-white/5 dark:text-brand-200">
            <span className="relative flex size-2">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-75" />
              <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
            </span>
            The official AI twin, online now
          </p>
          <h1
            id="hero-title"
            className="mt-6 font-display text-4xl leading-[1.05] font-extrabold tracking-tight text-balance text-stone-900 sm:text-6xl dark:text-white"
          >
            <span className="block text-2xl font-bold text-stone-600 sm:text-3xl dark:text-stone-300">
              Say hi to
            </span>
            <span className="bg-gradient-to-r from-brand-600 via-rose-500 to-orange-500 bg-clip-text text-transparent dark:from-brand-400 dark:via-rose-400 dark:to-amber-300">
              {name}
            </span>
          </h1>
          <p
            data-testid="promotional-message"
            className="mx-auto mt-6 max-w-xl text-lg leading-relaxed text-pretty text-stone-600 lg:mx-0 dark:text-stone-300"
          >
            {message}
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row lg:justify-start">
            {isAuthenticated ? (
              <>
                <AppLink to="/dashboard/chat" className={buttonClasses("primary", "lg")}>
                  <MessageCircle aria-hidden="true" className="size-5" />
                  Start Chat
                </AppLink>
                <AppLink to="/dashboard/call" className={buttonClasses("secondary", "lg")}>
                  <Phone aria-hidden="true" className="size-5" />
                  Voice Call
                </AppLink>
              </>
            ) : (
              <>
                <button
                  type="button"
                  onClick={() => onOpenAuth("login")}
                  className={buttonClasses("primary", "lg")}
                >
                  <MessageCircle aria-hidden="true" className="size-5" />
                  Start Chat
                </button>
                <button
                  type="button"
                  onClick={() => onOpenAuth("login")}
                  className={buttonClasses("secondary", "lg")}
                >
                  <Phone aria-hidden="true" className="size-5" />
                  Voice Call
                </button>
              </>
            )}
          </div>
          <ul className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-stone-600 lg:justify-start dark:text-stone-400">
            <li className="inline-flex items-center gap-1.5">
              <Sparkles aria-hidden="true" className="size-4 text-brand-500" />
              {settings.freeMessagesPerDay} free messages every day
            </li>
            <li className="inline-flex items-center gap-1.5">
              <ShieldCheck aria-hidden="true" className="size-4 text-brand-500" />
              Private and secure
            </li>
          </ul>
        </div>

        <div className="relative mx-auto w-full max-w-sm animate-fade-up [animation-delay:120ms]">
          <div
            aria-hidden="true"
            className="absolute -inset-3 rounded-[2.5rem] bg-gradient-to-br from-brand-500 via-rose-400 to-amber-300 opacity-70 blur-xl dark:opacity-50"
          />
          <div className="relative overflow-hidden rounded-[2rem] border border-white/60 bg-white shadow-2xl shadow-brand-900/20 dark:border-white/10 dark:bg-stone-900">
            <UserAvatar
              name={name}
              image={aiProfileImage}
              className="aspect-[4/5] w-full"
              textClassName="text-8xl"
              labelled
              placeholderTestId="persona-placeholder"
            />
            <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/70 via-black/30 to-transparent p-5 pt-16">
              <p className="font-display text-xl font-bold text-white">{name}</p>
              <p className="text-sm text-white/85">Replies in seconds · Voice calls available</p>
            </div>
          </div>
          <div
            aria-hidden="true"
            className="absolute top-6 -left-2 max-w-[12rem] animate-float rounded-2xl rounded-bl-md bg-white px-4 py-3 text-sm font-medium text-stone-800 shadow-xl sm:-left-10 dark:bg-stone-800 dark:text-stone-100"
          >
            Hey you! I was hoping you'd drop by.
          </div>
        </div>
      </div>
    </section>
  );
}

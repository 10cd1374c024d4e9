import { MINORS_NOTICE } from "@twinline/contracts";
import type { ReactNode } from "react";
import { Logo } from "@/components/ui/logo";
import { SOCIAL_LABELS, SocialIcon } from "@/components/ui/social-icon";
import { COPYRIGHT_YEAR } from "@/lib/constants";
import { AppLink } from "@/lib/navigation";
import { configuredSocialLinks, useSettings } from "@/lib/settings";
import { AUTH_PATH, FOOTER_LINKS, SIGNUP_PATH } from "../content";

const linkClass =
  "rounded text-stone-600 transition hover:text-brand-600 dark:text-stone-400 dark:hover:text-brand-300";

/** The site pages' two columns, in this order. */
const PAGE_GROUPS = ["Legal", "Company"] as const;

function FooterList({ title, children }: { title: string; children: ReactNode }) {
  const id = `footer-${title.toLowerCase()}`;
  return (
    <nav aria-labelledby={id}>
      <h2
        id={id}
        className="text-sm font-semibold tracking-wider text-stone-900 uppercase dark:text-white"
      >
        {title}
      </h2>
      <ul className="mt-4 space-y-3 text-sm">{children}</ul>
    </nav>
  );
}

/** Footer: social links set in settings, Legal, Company and Connect, the 18+ statement, © 2025. */
export function LandingFooter() {
  const { settings } = useSettings();
  const socials = configuredSocialLinks(settings);
  const { name } = settings.aiProfile;

  return (
    <footer className="border-t border-stone-200 bg-white dark:border-white/10 dark:bg-stone-950">
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <div className="grid gap-10 sm:grid-cols-2 lg:grid-cols-[1.5fr_1fr_1fr_1fr]">
          <div>
            <AppLink to="/" aria-label="Twinline home" className="inline-block rounded-lg">
              <Logo />
            </AppLink>
            <p className="mt-4 max-w-xs text-sm leading-relaxed text-stone-600 dark:text-stone-400">
              Chat and call {name}, the official AI twin, whenever you like.
            </p>
            {socials.length > 0 ? (
              <ul aria-label="Social media" className="mt-6 flex flex-wrap gap-2">
                {socials.map(({ network, url }) => (
                  <li key={network}>
                    <a
                      href={url}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={SOCIAL_LABELS[network]}
                      title={SOCIAL_LABELS[network]}
                      data-testid={`social-${network}`}
                      className="flex size-10 items-center justify-center rounded-full border border-stone-200 text-stone-600 transition hover:border-brand-300 hover:bg-brand-50 hover:text-brand-600 dark:border-white/10 dark:text-stone-300 dark:hover:border-brand-400/50 dark:hover:bg-white/5 dark:hover:text-brand-300"
                    >
                      <SocialIcon network={network} />
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>

          {PAGE_GROUPS.map((group) => (
            <FooterList key={group} title={group}>
              {FOOTER_LINKS[group].map((page) => (
                <li key={page.slug}>
                  <AppLink to={`/${page.slug}`} className={linkClass}>
                    {page.title}
                  </AppLink>
                </li>
              ))}
            </FooterList>
          ))}

          <FooterList title="Connect">
            <li>
              <AppLink to={SIGNUP_PATH} className={linkClass}>
                Create an account
              </AppLink>
            </li>
            <li>
              <AppLink to={AUTH_PATH} className={linkClass}>
                Log in
              </AppLink>
            </li>
            {socials.map(({ network, url }) => (
              <li key={network}>
                <a href={url} target="_blank" rel="noopener noreferrer" className={linkClass}>
                  {SOCIAL_LABELS[network]}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </FooterList>
        </div>

        <div className="mt-12 flex flex-col gap-4 border-t border-stone-200 pt-8 text-sm text-stone-600 md:flex-row md:items-center md:justify-between dark:border-white/10 dark:text-stone-400">
          <p data-testid="footer-statement" className="max-w-2xl leading-relaxed">
            This is an AI experience: every conversation is with an artificial intelligence. All
            characters are fictional. You must be {settings.minimumAge} or older to use this
            service. <span data-testid="minors-notice">{MINORS_NOTICE}.</span>
          </p>
          <p className="shrink-0">
            © {COPYRIGHT_YEAR} {settings.siteName}. All rights reserved.
          </p>
        </div>
      </div>
    </footer>
  );
}

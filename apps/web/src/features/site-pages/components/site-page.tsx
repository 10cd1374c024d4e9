import { useQuery } from "@tanstack/react-query";
import { SITE_PAGES, type SitePageSlug } from "@twinline/contracts";
import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { Logo } from "@/components/ui/logo";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useSettings } from "@/lib/settings";
import { sitePageQuery } from "../api/site-pages";
import { ContactForm } from "./contact-form";
import { PageMarkdown } from "./page-markdown";

export const SITE_PAGE_TEXT = {
  loadFailed: "This page could not be loaded.",
} as const;

/**
 * /terms, /privacy, /refunds, /about, /contact, /faq: the admin's markdown (or the built-in text)
 * under a slim header; `footer` is the site's footer, composed by the route.
 */
export function SitePageView({ slug, footer }: { slug: SitePageSlug; footer?: ReactNode }) {
  const page = useQuery(sitePageQuery(slug));
  const { settings } = useSettings();
  const title = SITE_PAGES.find((candidate) => candidate.slug === slug)?.title ?? "";
  useDocumentTitle(`${title} · ${settings.siteName}`);
  return (
    <div className="flex min-h-dvh flex-col bg-stone-50 dark:bg-stone-950">
      <header className="border-b border-stone-200 bg-white dark:border-white/10 dark:bg-stone-900">
        <div className="mx-auto flex h-16 max-w-3xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link to="/" aria-label={`${settings.siteName} home`} className="rounded-lg">
            <Logo />
          </Link>
          <ThemeToggle />
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-10 sm:px-6">
        <Link
          to="/"
          className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-stone-600 hover:text-brand-700 dark:text-stone-300 dark:hover:text-brand-300"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to home
        </Link>
        <h1 className="mt-4 font-display text-3xl font-bold text-stone-900 dark:text-white">
          {title}
        </h1>
        {page.isPending ? (
          <LoadingState label={`Loading ${title}`} />
        ) : page.isError ? (
          <div className="mt-6">
            <ErrorState message={SITE_PAGE_TEXT.loadFailed} onRetry={() => page.refetch()} />
          </div>
        ) : (
          <article
            data-testid="site-page-content"
            className="mt-4 text-stone-800 dark:text-stone-200"
          >
            <PageMarkdown>{page.data.content}</PageMarkdown>
          </article>
        )}
        {slug === "contact" && settings.contactEmail ? (
          <ContactForm contactEmail={settings.contactEmail} />
        ) : null}
      </main>
      {footer}
    </div>
  );
}

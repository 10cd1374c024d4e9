import { useQuery } from "@tanstack/react-query";
import {
  type AdminSitePage,
  SITE_PAGE_MAX_LENGTH,
  SITE_PAGE_PLACEHOLDERS,
  type SitePageSlug,
} from "@twinline/contracts";
import { ExternalLink } from "lucide-react";
import { useId, useState } from "react";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { FormMessage, inputClasses } from "@/components/ui/field";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { Section } from "@/components/ui/section";
import { useSavedTick } from "@/hooks/use-saved-tick";
import { errorMessage } from "@/lib/api-client";
import { adminSitePagesQuery, useSaveSitePage } from "../api/pages";
import { SaveButton } from "./ui";

export const PAGES_MESSAGES = {
  saved: "Page saved",
  saveFailed: "Failed to save the page",
  loadFailed: "Failed to load the pages",
} as const;

/**
 * The "Pages" section of /admin/Settings: the legal and company pages the footer and the checkout
 * link, in markdown, one at a time. Each page saves on its own, apart from the settings form.
 */
export function PagesSection() {
  const pages = useQuery(adminSitePagesQuery());
  const [slug, setSlug] = useState<SitePageSlug>("terms");
  const selectId = useId();
  const page = pages.data?.find((candidate) => candidate.slug === slug);
  return (
    <Section
      title="Pages"
      description={
        <>
          Terms, privacy, refunds, safety, about, contact and FAQ, in markdown (raw HTML shows as
          text). <code>{SITE_PAGE_PLACEHOLDERS.persona}</code>,{" "}
          <code>{SITE_PAGE_PLACEHOLDERS.site}</code> and{" "}
          <code>{SITE_PAGE_PLACEHOLDERS.minimumAge}</code> become the AI name, the site name and the
          minimum age. Save a page empty to bring back its built-in text.
        </>
      }
    >
      {pages.isPending ? (
        <LoadingState label="Loading pages" />
      ) : pages.isError ? (
        <ErrorState
          layout="compact"
          message={PAGES_MESSAGES.loadFailed}
          onRetry={() => pages.refetch()}
        />
      ) : (
        <div className="space-y-4">
          <div>
            <label
              htmlFor={selectId}
              className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
            >
              Page
            </label>
            <select
              id={selectId}
              value={slug}
              onChange={(event) => setSlug(event.target.value as SitePageSlug)}
              className={inputClasses}
            >
              {pages.data.map((candidate) => (
                <option key={candidate.slug} value={candidate.slug}>
                  {candidate.title}
                  {candidate.isDefault ? " (built-in text)" : ""}
                </option>
              ))}
            </select>
          </div>
          {page ? <PageEditor key={`${page.slug}:${page.content}`} page={page} /> : null}
        </div>
      )}
    </Section>
  );
}

function PageEditor({ page }: { page: AdminSitePage }) {
  const [content, setContent] = useState(page.content);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, showSaved] = useSavedTick();
  const save = useSaveSitePage();
  const textareaId = useId();
  return (
    <form
      noValidate
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        setFailure(null);
        save.mutate(
          { slug: page.slug, content },
          {
            onSuccess: () => {
              toast.success(PAGES_MESSAGES.saved);
              showSaved();
            },
            onError: (error) => {
              toast.error(PAGES_MESSAGES.saveFailed);
              setFailure(errorMessage(error, PAGES_MESSAGES.saveFailed));
            },
          },
        );
      }}
    >
      <div>
        <label
          htmlFor={textareaId}
          className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
        >
          {page.title} (markdown)
        </label>
        <textarea
          id={textareaId}
          rows={14}
          maxLength={SITE_PAGE_MAX_LENGTH}
          value={content}
          onChange={(event) => {
            setContent(event.target.value);
            setFailure(null);
          }}
          className={`${inputClasses} h-auto py-2.5 font-mono text-sm`}
        />
      </div>
      {failure && <FormMessage>{failure}</FormMessage>}
      <div className="flex flex-wrap items-center justify-end gap-3">
        <a
          href={`/${page.slug}`}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClasses("ghost", "md")}
        >
          <ExternalLink aria-hidden="true" className="size-4" />
          View page<span className="sr-only"> (opens in a new tab)</span>
        </a>
        <SaveButton saving={save.isPending} saved={saved} label="Save Page" />
      </div>
    </form>
  );
}

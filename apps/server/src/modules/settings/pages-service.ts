import {
  type AdminSitePage,
  SITE_PAGE_PLACEHOLDERS,
  SITE_PAGES,
  type SitePage,
  type SitePageSlug,
} from "@twinline/contracts";
import { DEFAULT_SITE_PAGES } from "./page-defaults.ts";
import type { SitePagesRepository } from "./pages-repository.ts";
import type { SettingsService } from "./service.ts";

export interface SitePagesService {
  /** The page a visitor reads: the saved or built-in markdown, placeholders filled in. */
  page(slug: SitePageSlug): Promise<SitePage>;
  /** Every page as the admin edits it, placeholders kept. */
  adminPages(): Promise<AdminSitePage[]>;
  save(slug: SitePageSlug, content: string): Promise<AdminSitePage>;
}

const titleOf = (slug: SitePageSlug) =>
  SITE_PAGES.find((page) => page.slug === slug)?.title ?? slug;

export function createSitePagesService(deps: {
  repository: SitePagesRepository;
  settings: SettingsService;
}): SitePagesService {
  const { repository, settings } = deps;
  const adminPage = (slug: SitePageSlug, saved: string | undefined): AdminSitePage => ({
    slug,
    title: titleOf(slug),
    content: saved ?? DEFAULT_SITE_PAGES[slug],
    isDefault: saved === undefined,
  });
  return {
    async page(slug) {
      const [saved, current] = await Promise.all([repository.read(slug), settings.get()]);
      // Plain replacement (not a pattern): a name with "$" in it stays as written.
      const content = (saved ?? DEFAULT_SITE_PAGES[slug])
        .replaceAll(SITE_PAGE_PLACEHOLDERS.persona, () => current.aiProfile.name)
        .replaceAll(SITE_PAGE_PLACEHOLDERS.site, () => current.siteName)
        .replaceAll(SITE_PAGE_PLACEHOLDERS.minimumAge, () => String(current.minimumAge));
      return { slug, title: titleOf(slug), content };
    },
    async adminPages() {
      const saved = await repository.readAll();
      return SITE_PAGES.map(({ slug }) => adminPage(slug, saved.get(slug)));
    },
    async save(slug, content) {
      // Only blank text brings the built-in page back; anything else is kept exactly as typed.
      const value = content.trim() === "" ? "" : content;
      await repository.write(slug, value);
      return adminPage(slug, value === "" ? undefined : value);
    },
  };
}

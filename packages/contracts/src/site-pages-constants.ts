/**
 * The site's own pages (legal and company) with no zod in them: the landing footer links them
 * without pulling zod into its first load (decision 0033).
 */
export const SITE_PAGES = [
  { slug: "terms", title: "Terms of Service", group: "Legal" },
  { slug: "privacy", title: "Privacy Policy", group: "Legal" },
  { slug: "refunds", title: "Refund Policy", group: "Legal" },
  { slug: "safety", title: "Safety", group: "Legal" },
  { slug: "about", title: "About Us", group: "Company" },
  { slug: "contact", title: "Contact", group: "Company" },
  { slug: "faq", title: "FAQ", group: "Company" },
] as const;

export type SitePageSlug = (typeof SITE_PAGES)[number]["slug"];
export const SITE_PAGE_SLUGS = SITE_PAGES.map((page) => page.slug) as [
  SitePageSlug,
  ...SitePageSlug[],
];

/**
 * Placeholders a page's markdown may hold, filled in when the page is served, so a renamed
 * persona or site shows in every page at once.
 */
export const SITE_PAGE_PLACEHOLDERS = {
  persona: "{{persona}}",
  site: "{{site}}",
  /** The operator's minimum age setting (so the pages never disagree with the sign-up gate). */
  minimumAge: "{{minimumAge}}",
} as const;

/** The longest markdown a page may hold (characters). */
export const SITE_PAGE_MAX_LENGTH = 50_000;

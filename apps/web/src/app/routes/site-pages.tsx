import { SITE_PAGE_SLUGS, type SitePageSlug } from "@twinline/contracts";
import { useLocation } from "react-router";
import { LandingFooter } from "@/features/landing/components/landing-footer";
import { SitePageView } from "@/features/site-pages";

/**
 * /terms, /privacy, /refunds, /about, /contact, /faq: the page the path names (lazy: off the
 * landing bundle), with the landing's footer.
 */
export function SitePageRoute() {
  const segment = useLocation().pathname.split("/")[1]?.toLowerCase() ?? "";
  const slug = (SITE_PAGE_SLUGS as readonly string[]).includes(segment)
    ? (segment as SitePageSlug)
    : "about";
  return <SitePageView key={slug} slug={slug} footer={<LandingFooter />} />;
}

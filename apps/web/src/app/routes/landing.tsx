import { useEffect } from "react";
import { AboutSection } from "@/features/landing/components/about-section";
import { CtaSection } from "@/features/landing/components/cta-section";
import { FeaturesSection } from "@/features/landing/components/features-section";
import { HeroSection } from "@/features/landing/components/hero-section";
import { LandingFooter } from "@/features/landing/components/landing-footer";
import { LandingHeader } from "@/features/landing/components/landing-header";
import { PreviewConversation } from "@/features/landing/components/preview-conversation";
import { TestimonialsSection } from "@/features/landing/components/testimonials-section";
import { useSettings } from "@/lib/settings";

/** `/`: the landing page. */
export function LandingRoute() {
  const { settings } = useSettings();
  const { name } = settings.aiProfile;
  useEffect(() => {
    document.title = `${name} · Twinline`;
  }, [name]);

  return (
    <div className="min-h-dvh overflow-x-clip">
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-brand-600 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <LandingHeader />
      <main id="main" tabIndex={-1} className="outline-none">
        <HeroSection />
        <AboutSection />
        <FeaturesSection />
        <PreviewConversation />
        <TestimonialsSection />
        <CtaSection />
      </main>
      <LandingFooter />
    </div>
  );
}

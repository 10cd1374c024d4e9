import { lazy, Suspense, useState } from "react";
import { AboutSection } from "@/features/landing/components/about-section";
import { CtaSection } from "@/features/landing/components/cta-section";
import { FeaturesSection } from "@/features/landing/components/features-section";
import { HeroSection } from "@/features/landing/components/hero-section";
import { LandingFooter } from "@/features/landing/components/landing-footer";
import { LandingHeader } from "@/features/landing/components/landing-header";
import { PreviewConversation } from "@/features/landing/components/preview-conversation";
import { TestimonialsSection } from "@/features/landing/components/testimonials-section";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useAuth } from "@/lib/auth/auth-provider";
import { useSettings } from "@/lib/settings";

// The login modal (forms, Google sign-in) is its own bundle, fetched when a visitor opens it.
const loadAuthModal = () => import("@/features/auth/components/auth-modal");
const AuthModal = lazy(() => loadAuthModal().then((m) => ({ default: m.AuthModal })));

// The anonymous trial chat (decision 0084) is its own bundle too, fetched on the visitor's first
// interaction with "Chat now": the landing page's first load does not grow.
const loadTrialChat = () => import("@/features/chat/components/trial-chat");
const TrialChat = lazy(() => loadTrialChat().then((m) => ({ default: m.TrialChat })));

type AuthMode = "login" | "signup";

/** `/`: the landing page, with the login / sign-up modal. */
export function LandingRoute() {
  const { settings } = useSettings();
  const { isAuthenticated } = useAuth();
  const { name } = settings.aiProfile;
  const [trialOpen, setTrialOpen] = useState(false);
  // The operator's allowance; 0 turns the trial off (no chat box). A member has their own chat.
  const trialOffered = settings.anonymousMessages > 0 && !isAuthenticated;
  // `opening` counts the openings, so every opening starts afresh in the requested mode.
  const [modal, setModal] = useState<{ open: boolean; mode: AuthMode; opening: number }>({
    open: false,
    mode: "login",
    opening: 0,
  });
  useDocumentTitle(`${name} · Twinline`);

  const openAuth = (mode: AuthMode) =>
    setModal((m) => ({ open: true, mode, opening: m.opening + 1 }));

  return (
    <div className="min-h-dvh overflow-x-clip">
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-brand-600 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <LandingHeader onOpenAuth={openAuth} />
      <main id="main" tabIndex={-1} className="outline-none">
        <HeroSection onOpenAuth={openAuth} />
        <AboutSection />
        <FeaturesSection />
        <PreviewConversation
          onTryNow={trialOffered ? () => setTrialOpen(true) : undefined}
          onTryNowIntent={trialOffered ? () => void loadTrialChat() : undefined}
          trialChat={
            trialOffered && trialOpen ? (
              <Suspense fallback={null}>
                <TrialChat autoFocus onAllowanceUsed={() => openAuth("signup")} />
              </Suspense>
            ) : null
          }
        />
        <TestimonialsSection />
        <CtaSection />
      </main>
      <LandingFooter />
      {modal.opening > 0 ? (
        <Suspense fallback={null}>
          <AuthModal
            key={modal.opening}
            open={modal.open}
            initialMode={modal.mode}
            onOpenChange={(open) => setModal((m) => ({ ...m, open }))}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

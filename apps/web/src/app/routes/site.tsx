import { lazy, Suspense, useState } from "react";
import { Outlet, useParams } from "react-router";
import { CharacterPage, CharactersPage, PremiumPage, SiteLayout } from "@/features/characters";

// The login modal is its own bundle, fetched when Guest Login is pressed.
const AuthModal = lazy(() =>
  import("@/features/auth/components/auth-modal").then((m) => ({ default: m.AuthModal })),
);

/** The alternate header layout around the character pages, /characters and /premium. */
export function SiteLayoutRoute() {
  const [modal, setModal] = useState({ open: false, opening: 0 });
  return (
    <SiteLayout onGuestLogin={() => setModal((m) => ({ open: true, opening: m.opening + 1 }))}>
      <Outlet />
      {modal.opening > 0 ? (
        <Suspense fallback={null}>
          <AuthModal
            key={modal.opening}
            open={modal.open}
            initialMode="login"
            onOpenChange={(open) => setModal((m) => ({ ...m, open }))}
          />
        </Suspense>
      ) : null}
    </SiteLayout>
  );
}

/** /character/{id}. */
export function CharacterRoute() {
  const { id } = useParams();
  return <CharacterPage id={id} />;
}

export { CharactersPage as CharactersRoute, PremiumPage as PremiumRoute };

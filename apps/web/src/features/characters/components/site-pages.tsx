import { Check, Crown, Heart, MessageCircle, Mic, Star } from "lucide-react";
import { Link } from "react-router";
import { AiMarker } from "@/components/ui/ai-marker";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { UserAvatar } from "@/components/ui/user-avatar";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { formatCount } from "@/lib/format";
import { CHARACTERS } from "../data";

/** /characters: every character with a link to its profile. */
export function CharactersPage() {
  useDocumentTitle("Characters · Twinline");
  return (
    <div className="space-y-6">
      <h1 className="font-display text-3xl font-bold text-stone-900 dark:text-white">Characters</h1>
      <ul className="grid gap-4 sm:grid-cols-2">
        {CHARACTERS.map((character) => (
          <li key={character.id}>
            <Link
              to={`/character/${character.id}`}
              className="block rounded-2xl focus-visible:outline-2"
            >
              <Card className="flex gap-4 p-4 transition hover:border-brand-300">
                <UserAvatar
                  image={character.imageUrl}
                  name={character.name}
                  className="size-24 shrink-0 rounded-2xl"
                  labelled
                  tone="muted"
                  placeholderTestId="character-placeholder"
                />
                <div className="min-w-0">
                  <h2 className="flex items-center gap-2 font-display text-lg font-semibold text-stone-900 dark:text-white">
                    {character.name}
                    {character.isPremium && (
                      <Crown aria-label="Premium" className="size-4 text-amber-500" />
                    )}
                  </h2>
                  <AiMarker className="ml-0" />
                  <p className="text-sm text-stone-500 dark:text-stone-400">{character.race}</p>
                  <p className="mt-1 line-clamp-2 text-sm text-stone-700 dark:text-stone-300">
                    {character.description}
                  </p>
                  <p className="mt-2 flex items-center gap-3 text-xs text-stone-500 dark:text-stone-400">
                    <span className="inline-flex items-center gap-1">
                      <Star aria-hidden="true" className="size-3.5 fill-amber-400 text-amber-400" />
                      {character.rating.toFixed(1)}
                    </span>
                    <span className="inline-flex items-center gap-1">
                      <Heart aria-hidden="true" className="size-3.5" />
                      {formatCount(character.favoriteCount)}
                    </span>
                  </p>
                </div>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

const PREMIUM_FEATURES = [
  { icon: MessageCircle, text: "Unlimited messages, every day" },
  { icon: Mic, text: "Voice conversations with every voice-enabled character" },
  { icon: Crown, text: "Premium characters and their full stories" },
];

/** /premium: what a subscription gives, and where to take one. */
export function PremiumPage() {
  useDocumentTitle("Premium · Twinline");
  return (
    <div className="mx-auto max-w-2xl space-y-6 text-center">
      <h1 className="font-display text-3xl font-bold text-stone-900 dark:text-white">Premium</h1>
      <p className="text-stone-600 dark:text-stone-300">
        Free accounts get a few messages a day. A subscription removes the limit.
      </p>
      <Card className="p-6 text-left">
        <ul className="space-y-3">
          {PREMIUM_FEATURES.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-center gap-3 text-stone-800 dark:text-stone-100">
              <Icon aria-hidden="true" className="size-5 text-brand-500" />
              {text}
              <Check aria-hidden="true" className="ml-auto size-4 text-emerald-500" />
            </li>
          ))}
        </ul>
      </Card>
      <Link to="/dashboard/credits" className={buttonClasses("primary", "lg")}>
        See plans
      </Link>
    </div>
  );
}

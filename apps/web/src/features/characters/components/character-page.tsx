import { clsx } from "clsx";
import {
  Crown,
  Heart,
  House,
  Lock,
  MessageCircle,
  Mic,
  Share2,
  Sparkles,
  Star,
} from "lucide-react";
import toast from "react-hot-toast";
import { Link, useNavigate } from "react-router";
import { AiMarker } from "@/components/ui/ai-marker";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { UserAvatar } from "@/components/ui/user-avatar";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { formatCount } from "@/lib/format";
import {
  type Character,
  type CharacterStats,
  findCharacter,
  SIMILAR_CHARACTERS,
  STAT_LABELS,
} from "../data";
import { useFavorite } from "../hooks/use-favorite";

export const CHARACTER_TEXT = {
  notFound: "Character not found",
  linkCopied: "Link copied to clipboard",
  copyFailed: "Could not copy the link",
} as const;

/** One attribute bar on the 0 to 100 scale. */
function StatBar({ stat, value }: { stat: keyof CharacterStats; value: number }) {
  const clamped = Math.min(100, Math.max(0, value));
  const label = STAT_LABELS[stat];
  return (
    <div>
      <div className="flex justify-between text-sm">
        <span className="font-medium text-stone-700 dark:text-stone-200">{label}</span>
        <span className="tabular-nums text-stone-500 dark:text-stone-400">{clamped}</span>
      </div>
      <meter className="sr-only" aria-label={label} min={0} max={100} value={clamped} />
      <div
        aria-hidden="true"
        className="mt-1 h-2 overflow-hidden rounded-full bg-stone-200 dark:bg-white/10"
      >
        <div
          className="h-full rounded-full bg-gradient-to-r from-brand-500 to-orange-400"
          style={{ width: `${clamped}%` }}
        />
      </div>
    </div>
  );
}

async function share(character: Character) {
  const url = `${window.location.origin}/character/${character.id}`;
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: character.name, text: character.description, url });
    } catch {
      // The visitor closed the share sheet: nothing to say.
    }
    return;
  }
  try {
    await navigator.clipboard.writeText(url);
    toast.success(CHARACTER_TEXT.linkCopied);
  } catch {
    toast.error(CHARACTER_TEXT.copyFailed);
  }
}

/** "Character not found" with a link home. */
export function CharacterNotFound() {
  return (
    <div
      className="flex flex-col items-center gap-4 py-20 text-center"
      data-testid="character-not-found"
    >
      <h1 className="font-display text-2xl font-bold text-stone-900 dark:text-white">
        {CHARACTER_TEXT.notFound}
      </h1>
      <Link to="/" className={buttonClasses("primary", "md")}>
        <House aria-hidden="true" className="size-4" />
        Return to Home
      </Link>
    </div>
  );
}

function Profile({ character }: { character: Character }) {
  const navigate = useNavigate();
  const { favorite, toggle } = useFavorite(character.id);
  const similar = SIMILAR_CHARACTERS[character.id] ?? [];
  const go = (initialTab: "chat" | "call") =>
    navigate(`/dashboard?initialTab=${initialTab}&characterId=${character.id}`);

  return (
    <div className="space-y-8">
      <section className="grid gap-6 md:grid-cols-[minmax(0,18rem)_1fr]">
        <UserAvatar
          image={character.imageUrl}
          name={character.name}
          className="aspect-square w-full rounded-3xl shadow-lg"
          textClassName="text-7xl"
          labelled
          tone="muted"
          placeholderTestId="character-placeholder"
        />
        <div className="min-w-0 space-y-4">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="font-display text-3xl font-bold text-stone-900 dark:text-white">
              {character.name}
            </h1>
            <AiMarker className="ml-0" />
            {character.isPremium && (
              <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-800 dark:bg-amber-500/15 dark:text-amber-300">
                <Crown aria-hidden="true" className="size-3.5" /> Premium
              </span>
            )}
          </div>
          <dl className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-stone-600 dark:text-stone-300">
            <div className="flex gap-1">
              <dt className="sr-only">Race</dt>
              <dd>{character.race}</dd>
            </div>
            <div className="flex items-center gap-1">
              <dt>
                <Star aria-hidden="true" className="size-4 fill-amber-400 text-amber-400" />
                <span className="sr-only">Rating</span>
              </dt>
              <dd>{character.rating.toFixed(1)}</dd>
            </div>
            <div className="flex items-center gap-1">
              <dt>
                <MessageCircle aria-hidden="true" className="size-4" />
                <span className="sr-only">Chats</span>
              </dt>
              <dd>{formatCount(character.chatCount)} chats</dd>
            </div>
          </dl>
          <p className="text-stone-700 dark:text-stone-200">{character.description}</p>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              onClick={() => go("chat")}
              className={buttonClasses("primary", "md")}
            >
              <MessageCircle aria-hidden="true" className="size-4" /> Text Chat
            </button>
            <button
              type="button"
              onClick={() => go("call")}
              disabled={!character.voiceEnabled}
              className={buttonClasses("secondary", "md")}
            >
              {character.voiceEnabled ? (
                <Mic aria-hidden="true" className="size-4" />
              ) : (
                <Lock aria-hidden="true" className="size-4" />
              )}
              Voice Chat
              {!character.voiceEnabled && (
                <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-800 dark:bg-amber-500/15 dark:text-amber-300">
                  Premium
                </span>
              )}
            </button>
            <button
              type="button"
              onClick={toggle}
              aria-pressed={favorite}
              className={buttonClasses("ghost", "md")}
            >
              <Heart
                aria-hidden="true"
                className={clsx("size-4", favorite && "fill-brand-500 text-brand-500")}
              />
              {favorite ? "Favorited" : "Favorite"}
            </button>
            <button
              type="button"
              onClick={() => share(character)}
              className={buttonClasses("ghost", "md")}
            >
              <Share2 aria-hidden="true" className="size-4" /> Share
            </button>
          </div>
        </div>
      </section>

      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="space-y-6">
          <Card className="space-y-3 p-5">
            <h2 className="font-display text-lg font-semibold text-stone-900 dark:text-white">
              Background Story
            </h2>
            <p className="text-stone-700 dark:text-stone-300">{character.longDescription}</p>
            <h2 className="pt-2 font-display text-lg font-semibold text-stone-900 dark:text-white">
              Personality
            </h2>
            <p className="text-stone-700 dark:text-stone-300">{character.personality}</p>
          </Card>
          <Card className="space-y-4 p-5">
            <h2 className="font-display text-lg font-semibold text-stone-900 dark:text-white">
              Attributes
            </h2>
            {(Object.keys(STAT_LABELS) as (keyof CharacterStats)[]).map((stat) => (
              <StatBar key={stat} stat={stat} value={character.stats[stat]} />
            ))}
          </Card>
        </div>
        <aside className="space-y-6">
          {!character.isPremium && (
            <Card className="space-y-3 border-amber-200 bg-amber-50 p-5 dark:border-amber-500/30 dark:bg-amber-500/10">
              <h2 className="flex items-center gap-2 font-display text-lg font-semibold text-stone-900 dark:text-white">
                <Sparkles aria-hidden="true" className="size-5 text-amber-500" /> Upgrade to Premium
              </h2>
              <p className="text-sm text-stone-700 dark:text-stone-300">
                Unlock voice conversations and unlimited messages with a subscription.
              </p>
              <Link to="/dashboard/credits" className={buttonClasses("primary", "sm")}>
                Upgrade to Premium
              </Link>
            </Card>
          )}
          <Card className="p-5">
            <h2 className="mb-3 font-display text-lg font-semibold text-stone-900 dark:text-white">
              Similar Characters
            </h2>
            <ul className="space-y-3">
              {similar.map((other) => (
                <li key={other.id}>
                  <Link
                    to={`/character/${other.id}`}
                    className="flex items-center gap-3 rounded-xl p-1.5 hover:bg-stone-100 dark:hover:bg-white/5"
                  >
                    <UserAvatar
                      image={other.imageUrl}
                      name={other.name}
                      className="size-12 shrink-0 rounded-xl"
                      textClassName="text-base"
                      labelled
                      tone="muted"
                      placeholderTestId="character-placeholder"
                    />
                    <span className="min-w-0">
                      <span className="block truncate font-medium text-stone-900 dark:text-white">
                        {other.name}
                        <AiMarker />
                      </span>
                      <span className="block text-sm text-stone-500 dark:text-stone-400">
                        {other.race}
                      </span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        </aside>
      </div>
    </div>
  );
}

/** /character/{id}: the sample characters 1 and 2; any other id says "Character not found". */
export function CharacterPage({ id }: { id: string | undefined }) {
  const character = findCharacter(id);
  useDocumentTitle(`${character?.name ?? CHARACTER_TEXT.notFound} · Twinline`);
  if (!character) return <CharacterNotFound />;
  return <Profile key={character.id} character={character} />;
}

import { clsx } from "clsx";
import { useState } from "react";
import { mediaUrl } from "@/lib/api-client";

/** Up to two initials for the generated avatar. */
export function initialsOf(name: string, email = ""): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    words.length >= 2
      ? `${words[0]?.[0] ?? ""}${words.at(-1)?.[0] ?? ""}`
      : (words[0] ?? email).slice(0, 2);
  return (letters || "?").toUpperCase();
}

const TONES = {
  brand: "bg-gradient-to-br from-brand-500 via-rose-500 to-amber-400",
  muted: "bg-gradient-to-br from-stone-400 to-stone-600",
} as const;

/**
 * THE avatar with initials (decision 0047): a picture (a media path or URL), or generated initials
 * on a gradient when there is none or it fails to load. People, the persona and the sample
 * characters all show through it. `size` picks a round avatar; `className` sets another box
 * instead (a hero picture, a card image). `labelled` names the picture for screen readers; else
 * it is decoration beside a name already shown.
 */
export function UserAvatar({
  name,
  email,
  image,
  size = "md",
  className,
  textClassName,
  labelled = false,
  tone = "brand",
  placeholderTestId,
}: {
  name: string;
  email?: string;
  image?: string | null;
  size?: "md" | "lg";
  className?: string;
  textClassName?: string;
  labelled?: boolean;
  tone?: keyof typeof TONES;
  placeholderTestId?: string;
}) {
  const src = mediaUrl(image);
  const [failed, setFailed] = useState<string | null>(null);
  const box =
    className ?? clsx("rounded-full", size === "lg" ? "size-20 text-2xl" : "size-9 text-sm");
  if (src && failed !== src) {
    return (
      <img
        src={src}
        alt={labelled ? name : ""}
        className={clsx(box, "shrink-0 object-cover")}
        onError={() => setFailed(src)}
      />
    );
  }
  const initials = initialsOf(name, email);
  return labelled ? (
    <div
      role="img"
      aria-label={name}
      data-testid={placeholderTestId}
      className={clsx(box, TONES[tone], "flex shrink-0 items-center justify-center text-white")}
    >
      <span aria-hidden="true" className={clsx("font-display font-black", textClassName)}>
        {initials}
      </span>
    </div>
  ) : (
    <span
      aria-hidden="true"
      data-testid={placeholderTestId}
      className={clsx(
        box,
        TONES[tone],
        "inline-flex shrink-0 items-center justify-center font-semibold text-white",
        textClassName,
      )}
    >
      {initials}
    </span>
  );
}

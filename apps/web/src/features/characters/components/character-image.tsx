import { clsx } from "clsx";
import { useState } from "react";
import { initialsOf } from "@/components/ui/user-avatar";

/** A character's picture, or a placeholder (gradient and initials) when it fails to load. */
export function CharacterImage({
  src,
  name,
  className,
  textClassName = "text-4xl",
}: {
  src: string;
  name: string;
  className?: string;
  textClassName?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) {
    return (
      <img
        src={src}
        alt={name}
        className={clsx("object-cover", className)}
        onError={() => setFailed(src)}
      />
    );
  }
  return (
    <div
      role="img"
      aria-label={name}
      data-testid="character-placeholder"
      className={clsx(
        "flex items-center justify-center bg-gradient-to-br from-stone-400 to-stone-600 text-white",
        className,
      )}
    >
      <span aria-hidden="true" className={clsx("font-display font-black", textClassName)}>
        {initialsOf(name)}
      </span>
    </div>
  );
}

import { clsx } from "clsx";
import { useState } from "react";
import { initialsOf } from "@/components/ui/user-avatar";
import { mediaUrl } from "@/lib/api-client";

/**
 * The persona's picture (aiProfileImage), or an initials avatar in the brand gradient when there
 * is none or it fails to load.
 */
export function PersonaAvatar({
  name,
  image,
  className,
  textClassName = "text-7xl",
}: {
  name: string;
  image: string;
  className?: string;
  textClassName?: string;
}) {
  const src = mediaUrl(image);
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
      data-testid="persona-placeholder"
      className={clsx(
        "flex items-center justify-center bg-gradient-to-br from-brand-500 via-rose-500 to-amber-400 text-white",
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={clsx("font-display font-black tracking-tight", textClassName)}
      >
        {initialsOf(name)}
      </span>
    </div>
  );
}

import { clsx } from "clsx";
import { useId, useState } from "react";
import { mediaUrl } from "@/lib/api-client";
import { useSettings } from "@/lib/settings";
import { useTheme } from "@/lib/theme";

/** The built-in mark: two lines meeting, in the brand gradient. */
export function LogoMark({ className }: { className?: string }) {
  // A unique gradient id: with two marks on a page (one in a hidden sidebar) a shared id would
  // point the visible one at the hidden gradient and leave it blank.
  const gradientId = useId();
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={clsx("size-8 shrink-0", className)}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#e11d55" />
          <stop offset="1" stopColor="#f59e0b" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="18" fill={`url(#${gradientId})`} />
      <path
        d="M16 24c8-6 24-6 32 0M16 40c8 6 24 6 32 0"
        fill="none"
        stroke="#fff"
        strokeWidth="6"
        strokeLinecap="round"
      />
    </svg>
  );
}

/**
 * The site logo: the light or dark theme logo from settings when set (dark logo in the dark
 * theme), else the built-in "Twinline" mark. A logo that fails to load falls back too.
 */
export function Logo({ className }: { className?: string }) {
  const { settings } = useSettings();
  const { resolvedTheme } = useTheme();
  const src = mediaUrl(resolvedTheme === "dark" ? settings.darkThemeLogo : settings.lightThemeLogo);
  const [failed, setFailed] = useState<string | null>(null);

  if (src && failed !== src) {
    return (
      <img
        src={src}
        alt="Twinline"
        className={clsx("h-8 w-auto max-w-40 object-contain", className)}
        onError={() => setFailed(src)}
      />
    );
  }
  return (
    <span className={clsx("inline-flex items-center gap-2", className)}>
      <LogoMark />
      <span className="font-display text-xl font-extrabold tracking-tight text-stone-900 dark:text-white">
        Twinline
      </span>
    </span>
  );
}

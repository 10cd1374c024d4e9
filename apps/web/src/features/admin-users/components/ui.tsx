import { clsx } from "clsx";
import { type HTMLAttributes, type ReactNode, useState } from "react";
import { mediaUrl } from "@/lib/api-client";
import { initialsOf } from "../api/format";

/** The admin screens' card surface. */
export function Card({
  children,
  className,
  ...rest
}: { children: ReactNode; className?: string } & HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={clsx(
        "rounded-2xl border border-stone-200 bg-white shadow-xs dark:border-white/10 dark:bg-stone-900",
        className,
      )}
      {...rest}
    >
      {children}
    </div>
  );
}

type Tone = "green" | "red" | "yellow" | "grey" | "blue" | "brand";

const tones: Record<Tone, string> = {
  green:
    "bg-emerald-50 text-emerald-700 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-400/30",
  red: "bg-red-50 text-red-700 ring-red-600/20 dark:bg-red-500/10 dark:text-red-300 dark:ring-red-400/30",
  yellow:
    "bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-400/30",
  grey: "bg-stone-100 text-stone-700 ring-stone-500/20 dark:bg-white/5 dark:text-stone-300 dark:ring-white/15",
  blue: "bg-sky-50 text-sky-700 ring-sky-600/20 dark:bg-sky-500/10 dark:text-sky-300 dark:ring-sky-400/30",
  brand:
    "bg-brand-50 text-brand-700 ring-brand-600/20 dark:bg-brand-500/10 dark:text-brand-200 dark:ring-brand-400/30",
};

export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span
      className={clsx(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset",
        tones[tone],
      )}
    >
      {children}
    </span>
  );
}

export function AccountStatusBadge({ isActive }: { isActive: boolean }) {
  return <Badge tone={isActive ? "green" : "red"}>{isActive ? "Active" : "Inactive"}</Badge>;
}

/** A profile image, or generated initials when there is none or it fails to load. */
export function UserAvatar({
  name,
  email,
  image,
  size = "md",
}: {
  name: string;
  email?: string;
  image?: string | null;
  size?: "md" | "lg";
}) {
  const src = mediaUrl(image);
  const [failed, setFailed] = useState<string | null>(null);
  const box = size === "lg" ? "size-20 text-2xl" : "size-9 text-sm";
  if (src && failed !== src) {
    return (
      <img
        src={src}
        alt=""
        className={clsx(box, "shrink-0 rounded-full object-cover")}
        onError={() => setFailed(src)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={clsx(
        box,
        "inline-flex shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-orange-400 font-semibold text-white",
      )}
    >
      {initialsOf(name, email)}
    </span>
  );
}

/** A grey bar standing in for text while loading. */
export function Skeleton({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={clsx("block animate-pulse rounded-md bg-stone-200 dark:bg-white/10", className)}
    />
  );
}

import type { SocialNetwork } from "@twinline/contracts";

/** Display names of the social networks. */
export const SOCIAL_LABELS: Record<SocialNetwork, string> = {
  twitter: "Twitter",
  instagram: "Instagram",
  youtube: "YouTube",
  facebook: "Facebook",
  tiktok: "TikTok",
  snapchat: "Snapchat",
  onlyfans: "OnlyFans",
};

/** Small brand glyphs for the footer (lucide no longer ships brand icons). Decorative only. */
export function SocialIcon({
  network,
  className = "size-5",
}: {
  network: SocialNetwork;
  className?: string;
}) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={className}>
      <Glyph network={network} />
    </svg>
  );
}

function Glyph({ network }: { network: SocialNetwork }) {
  switch (network) {
    case "twitter":
      return (
        <g fill="currentColor">
          <path d="M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.3L5.3 21H2.2l7.2-8.3L2 3h6.4l4.4 5.8L17.8 3Zm-1.1 16.2h1.7L7.4 4.7H5.6l11.1 14.5Z" />
        </g>
      );
    case "instagram":
      return (
        <g fill="none" stroke="currentColor" strokeWidth="2">
          <rect x="3" y="3" width="18" height="18" rx="5" />
          <circle cx="12" cy="12" r="4" />
          <circle cx="17.5" cy="6.5" r="1" fill="currentColor" stroke="none" />
        </g>
      );
    case "youtube":
      return (
        <g fill="currentColor">
          <path d="M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4a2.5 2.5 0 0 0-1.8 1.8C2 8.8 2 12 2 12s0 3.2.4 4.8a2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8c.4-1.6.4-4.8.4-4.8s0-3.2-.4-4.8ZM10 15V9l5.2 3-5.2 3Z" />
        </g>
      );
    case "facebook":
      return (
        <g fill="currentColor">
          <path d="M22 12a10 10 0 1 0-11.6 9.9v-7H7.9V12h2.5V9.8c0-2.5 1.5-3.9 3.8-3.9 1.1 0 2.2.2 2.2.2v2.5h-1.3c-1.2 0-1.6.8-1.6 1.6V12h2.8l-.4 2.9h-2.3v7A10 10 0 0 0 22 12Z" />
        </g>
      );
    case "tiktok":
      return (
        <g fill="currentColor">
          <path d="M16.6 3c.3 2.3 1.9 4 4.4 4.2v3.1a7.4 7.4 0 0 1-4.3-1.4v6.4A6.2 6.2 0 1 1 10.5 9v3.2a3 3 0 1 0 2.1 2.9V3h4Z" />
        </g>
      );
    case "snapchat":
      return (
        <g fill="currentColor">
          <path d="M12 2.8c3 0 5.2 2.3 5.2 5.3v2.2l1.5-.6c.7-.2 1.2.6.6 1.1l-1.9 1.3c.7 1.7 1.9 2.9 3.6 3.4-.3.8-1.4 1.1-2.6 1.3-.2.6-.3 1.2-1 1.2-.8 0-1.7-.4-2.9.4-.9.6-1.5 1.1-2.5 1.1s-1.6-.5-2.5-1.1c-1.2-.8-2.1-.4-2.9-.4-.7 0-.8-.6-1-1.2-1.2-.2-2.3-.5-2.6-1.3 1.7-.5 2.9-1.7 3.6-3.4L4.7 11.8c-.6-.5-.1-1.3.6-1.1l1.5.6V8.1c0-3 2.2-5.3 5.2-5.3Z" />
        </g>
      );
    case "onlyfans":
      return (
        <g fill="none" stroke="currentColor" strokeWidth="2.2">
          <circle cx="9" cy="13" r="5.5" />
          <path d="M13.5 8.5c1.8-1.9 4.5-2.5 7.5-2-1 3.3-3.2 6.6-7.2 7.2" strokeLinecap="round" />
        </g>
      );
  }
}

import { SITE_PAGES } from "@twinline/contracts";
import {
  Brain,
  Clock,
  type LucideIcon,
  MessageCircleHeart,
  PhoneCall,
  ShieldCheck,
  Sparkles,
} from "lucide-react";

/** Copy of the landing page. Testimonials are attributed by description, never by name. */

export const FALLBACK_PROMOTIONAL_MESSAGE =
  "Chat any time, call whenever you like. Your favourite creator's official AI twin is always here to listen, laugh and talk.";

export interface Feature {
  icon: LucideIcon;
  title: string;
  /** `{free}` is replaced by the free messages per day from settings. */
  description: string;
}

export const FEATURES: readonly Feature[] = [
  {
    icon: MessageCircleHeart,
    title: "Real conversations",
    description:
      "Talk about anything, in your own words. Replies sound like them, not like a script.",
  },
  {
    icon: PhoneCall,
    title: "Live voice calls",
    description:
      "Hear a familiar voice answer in real time and talk back naturally with your microphone.",
  },
  {
    icon: Brain,
    title: "Remembers you",
    description:
      "Your chat history stays with you, so every conversation picks up where the last one ended.",
  },
  {
    icon: Clock,
    title: "Always there",
    description: "Day or night, weekday or holiday: no waiting for a reply and no time zones.",
  },
  {
    icon: ShieldCheck,
    title: "Private and secure",
    description:
      "Your conversations belong to your account alone and travel over secure connections.",
  },
  {
    icon: Sparkles,
    title: "Flexible credits",
    description:
      "Start with {free} free messages a day, then top up or subscribe for unlimited chat. Credits never expire.",
  },
];

export interface Testimonial {
  quote: string;
  attribution: string;
  detail: string;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    quote:
      "I didn't expect it to feel this personal. It remembered the concert I mentioned last week and asked how it went.",
    attribution: "Subscriber since 2024",
    detail: "Chats most evenings",
  },
  {
    quote:
      "The voice calls are unreal. I call on my commute and it honestly feels like catching up with a friend.",
    attribution: "Voice call regular",
    detail: "Member since 2024",
  },
  {
    quote:
      "Warm, funny and always quick to answer. The free daily messages got me hooked, and the credits are worth it.",
    attribution: "Fan from day one",
    detail: "Member since 2025",
  },
];

export interface PreviewMessage {
  from: "fan" | "persona";
  text: string;
  time: string;
}

export const PREVIEW_MESSAGES: readonly PreviewMessage[] = [
  { from: "fan", text: "Hey! Your latest video totally made my day", time: "9:41" },
  {
    from: "persona",
    text: "Aww, that means so much! Which part did you like best?",
    time: "9:41",
  },
  {
    from: "fan",
    text: "The behind-the-scenes bit. Do you really rehearse that much?",
    time: "9:42",
  },
  {
    from: "persona",
    text: "Every single time! Want me to walk you through a typical shoot day? Or we can hop on a call.",
    time: "9:42",
  },
];

/** The footer's Legal and Company links: the site's own pages (decision 0046). */
export const FOOTER_LINKS = {
  Legal: SITE_PAGES.filter((page) => page.group === "Legal"),
  Company: SITE_PAGES.filter((page) => page.group === "Company"),
};

/** Where logged-out visitors go for now (a later issue opens the login modal instead). */
export const AUTH_PATH = "/auth";
export const SIGNUP_PATH = "/auth?tab=signup";

/** Opens the login / sign-up modal in the given mode (the landing route owns the modal). */
export type OpenAuth = (mode: "login" | "signup") => void;

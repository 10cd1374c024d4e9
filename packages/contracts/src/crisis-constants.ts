/**
 * The crisis protocol's constants and texts with no zod in them (issue 25, item 2;
 * docs/decisions/0060-crisis-protocol.md): the settings' defaults read them without zod.
 */

/** The moderation API's self-harm categories: what a flagged message is recorded under. */
export const CRISIS_CATEGORIES = [
  "self-harm",
  "self-harm/intent",
  "self-harm/instructions",
] as const;
export type CrisisCategoryName = (typeof CRISIS_CATEGORIES)[number];

/** Which check decided: the moderation provider, or our offline phrase detector. */
export const CRISIS_SOURCES = ["openai", "offline"] as const;

/** One crisis line the operator lists (crisis.ts crisisResourceSchema validates it). */
export interface CrisisResource {
  /** ISO 3166-1 alpha-2 codes it serves ("US", "GB IE"), or "INT" for everyone. */
  country: string;
  name: string;
  /** A number to call or text; empty for a web-only resource. */
  contact: string;
  url: string;
}

/** The defaults the issue names: the US 988 Lifeline, Samaritans (UK, Ireland), a directory. */
export const DEFAULT_CRISIS_RESOURCES: CrisisResource[] = [
  {
    country: "US",
    name: "988 Suicide & Crisis Lifeline",
    contact: "Call or text 988",
    url: "https://988lifeline.org",
  },
  {
    country: "GB IE",
    name: "Samaritans",
    contact: "Call 116 123",
    url: "https://www.samaritans.org",
  },
  {
    country: "INT",
    name: "Find a Helpline (international directory)",
    contact: "",
    url: "https://findahelpline.com",
  },
];

/** The resources for a fan in `country` (unknown: every one), the international ones always. */
export function crisisResourcesFor(
  resources: readonly CrisisResource[],
  country?: string | null,
): CrisisResource[] {
  if (!country) return [...resources];
  const code = country.toUpperCase();
  const local = resources.filter(
    (resource) => resource.country === "INT" || resource.country.split(/[ ,]+/).includes(code),
  );
  return local.some((resource) => resource.country !== "INT") ? local : [...resources];
}

/**
 * The caring message, fixed text of the product (never the model's): shown in the chat and
 * spoken in a call instead of the persona's reply.
 */
export const CRISIS_TEXT = {
  intro:
    "This is an automatic message from the app, not from the AI persona. It sounds like you " +
    "might be going through something really hard right now, and you deserve support from a " +
    "real person. You don't have to go through this alone.",
  resourcesLead: "You can reach someone right now, free and confidential:",
  emergency: "If you are in immediate danger, please call your local emergency number.",
  /** The panel that stays pinned in the chat for the session. */
  pinnedTitle: "Support is available",
  pinnedDismiss: "Hide",
} as const;

/** One resource as a line of text: "Samaritans: Call 116 123 (https://www.samaritans.org)". */
export function crisisResourceLine(resource: CrisisResource): string {
  const parts = [resource.contact, resource.url ? `(${resource.url})` : ""].filter(Boolean);
  return `${resource.name}: ${parts.join(" ")}`;
}

/** The caring message as stored and shown in the chat. */
export function crisisMessageText(resources: readonly CrisisResource[]): string {
  return [
    CRISIS_TEXT.intro,
    "",
    CRISIS_TEXT.resourcesLead,
    ...resources.map((resource) => `- ${crisisResourceLine(resource)}`),
    "",
    CRISIS_TEXT.emergency,
  ].join("\n");
}

/** The caring message as spoken in a call: the resources by name and number, no links read out. */
export function crisisSpokenText(resources: readonly CrisisResource[]): string {
  const spoken = resources
    .filter((resource) => resource.contact)
    .map((resource) => `${resource.name}: ${resource.contact}.`);
  return [
    CRISIS_TEXT.intro,
    spoken.length > 0 ? `${CRISIS_TEXT.resourcesLead} ${spoken.join(" ")}` : "",
    "The links are in your chat.",
    CRISIS_TEXT.emergency,
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * The character profiles (user-side spec, section 3 "Character"): hard-coded sample data with
 * two characters, ids 1 and 2, as the spec says; no endpoint serves characters. Both characters
 * are fictional. Similar Characters links id 3, which has no data (its page says
 * "Character not found").
 */
export interface CharacterStats {
  intelligence: number;
  strength: number;
  agility: number;
  charisma: number;
  magic: number;
}

export interface Character {
  id: number;
  name: string;
  race: string;
  description: string;
  longDescription: string;
  personality: string;
  imageUrl: string;
  backgroundUrl: string;
  stats: CharacterStats;
  isPremium: boolean;
  voiceEnabled: boolean;
  rating: number;
  chatCount: number;
  favoriteCount: number;
}

/** A card of the Similar Characters list. */
export interface SimilarCharacter {
  id: number;
  name: string;
  race: string;
  imageUrl: string;
}

export const CHARACTERS: readonly Character[] = [
  {
    id: 1,
    name: "Lyra Thornwood",
    race: "Elf",
    description: "A starlight archivist who remembers every story told under the old forest.",
    longDescription:
      "Lyra keeps the Silverleaf Archive, a library grown inside a thousand-year-old oak. She " +
      "trades stories with travellers, maps forgotten constellations and knows which songs " +
      "make the lanterns glow. Ask her about lost kingdoms, or tell her about yours.",
    personality:
      "Curious, warm and quick-witted; gently teasing, endlessly patient with questions.",
    imageUrl: "/characters/1.svg",
    backgroundUrl: "",
    stats: { intelligence: 92, strength: 38, agility: 74, charisma: 86, magic: 88 },
    isPremium: true,
    voiceEnabled: true,
    rating: 4.8,
    chatCount: 12840,
    favoriteCount: 2310,
  },
  {
    id: 2,
    name: "Brann Emberforge",
    race: "Dwarf",
    description: "A retired forge-master with a booming laugh and a story for every scar.",
    longDescription:
      "Brann spent forty winters at the Emberforge, shaping blades for heroes who rarely " +
      "brought them back. Now he runs a mountain inn, brews a famously strong cider and " +
      "gives advice nobody asked for, which is usually right.",
    personality: "Gruff, loyal and generous; blunt honesty softened by terrible jokes.",
    imageUrl: "/characters/2.svg",
    backgroundUrl: "",
    stats: { intelligence: 70, strength: 95, agility: 41, charisma: 77, magic: 22 },
    isPremium: false,
    voiceEnabled: false,
    rating: 4.5,
    chatCount: 8420,
    favoriteCount: 1175,
  },
];

export const SIMILAR_CHARACTERS: Readonly<Record<number, readonly SimilarCharacter[]>> = {
  1: [
    { id: 2, name: "Brann Emberforge", race: "Dwarf", imageUrl: "/characters/2.svg" },
    { id: 3, name: "Seren Vale", race: "Human", imageUrl: "/characters/3.svg" },
  ],
  2: [
    { id: 1, name: "Lyra Thornwood", race: "Elf", imageUrl: "/characters/1.svg" },
    { id: 3, name: "Seren Vale", race: "Human", imageUrl: "/characters/3.svg" },
  ],
};

export function findCharacter(id: string | undefined): Character | undefined {
  return CHARACTERS.find((character) => String(character.id) === id);
}

export const STAT_LABELS: Record<keyof CharacterStats, string> = {
  intelligence: "Intelligence",
  strength: "Strength",
  agility: "Agility",
  charisma: "Charisma",
  magic: "Magic",
};

/** Favorites are kept per browser. */
export const FAVORITES_KEY = "favoriteCharacters";

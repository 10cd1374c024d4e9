/**
 * The offline crisis check (issue 25): does a fan's message express suicide or self-harm intent?
 * It runs when no moderation key is set, and when the moderation provider fails. It reads the
 * message as words, not letters: first-person intent ("I want to kill myself", "I don't want to
 * be alive anymore"), plans and methods asked for, and ongoing self-harm; and it leaves the
 * everyday idioms alone ("this homework is killing me", "I'd die for a pizza", "I cut myself
 * shaving"). The table in crisis-phrases.unit.test.ts is its specification: every sentence in it
 * is asserted, and a new miss is fixed by adding its sentence there first.
 *
 * It leans towards answering with help: a false alarm costs one caring message, a miss can cost
 * far more. The categories are the moderation API's, so a flag reads the same from either.
 */

export type CrisisCategory = "self-harm" | "self-harm/intent" | "self-harm/instructions";

export interface CrisisVerdict {
  flagged: boolean;
  category?: CrisisCategory;
}

// Texting spellings and contractions, written out so one pattern serves each.
const SPELLINGS: readonly [RegExp, string][] = [
  [/\bkms\b/g, "kill myself"],
  [/\bunalive\b/g, "kill"],
  [/\bwanna\b/g, "want to"],
  [/\bgonna\b/g, "going to"],
  [/\bgotta\b/g, "got to"],
  [/\b(?:i'm|im)\b/g, "i am"],
  [/\bi'd\b/g, "i would"],
  [/\bi've\b/g, "i have"],
  [/\bi'll\b/g, "i will"],
  [/\b(?:don't|dont)\b/g, "do not"],
  [/\b(?:didn't|didnt)\b/g, "did not"],
  [/\b(?:can't|cant|cannot)\b/g, "can not"],
  [/\b(?:won't|wont)\b/g, "will not"],
  [/\b(?:isn't|isnt)\b/g, "is not"],
  [/\b(?:what's|whats)\b/g, "what is"],
  [/\bself ?-? ?harm/g, "selfharm"],
  [/\bmy ?self\b/g, "myself"],
];

/**
 * Everyday phrases that carry a crisis word but no crisis: removed before the patterns run, so
 * "I killed myself laughing" or "suicide prevention" never match what surrounds them.
 */
const IDIOMS: readonly RegExp[] = [
  /\bkill(?:ed|ing)? myself laughing\b/g,
  /\bshot myself in the foot\b/g,
  /\bshoot myself in the foot\b/g,
  /\bdie (?:of|from|laughing|for|on this hill|happy)\b/g,
  /\bdying (?:of|from|to|for)\b/g,
  /\bsuicide (?:prevention|squad|doors?|rate|rates|awareness|hotline)\b/g,
  /\bi am not suicidal\b/g,
  /\bwould rather die than\b/g,
];

const INTENT =
  "(?:want|wanted|wanting|going|plan|planning|planned|ready|decided|need|trying|tried|try|thinking about|thought about|thinking of|considering|feel like|urge to|about)";

const RULES: readonly [CrisisCategory, RegExp][] = [
  // Asking for a method: the persona must never answer it.
  [
    "self-harm/instructions",
    /\b(?:how|best way|easiest way|quickest way|fastest way|painless way|ways?|method)\b.{0,24}\b(?:kill myself|end my life|commit suicide|to die|hang myself|overdose|cut (?:myself|my wrists)|slit my wrists)\b/,
  ],
  [
    "self-harm/instructions",
    /\b(?:how many|lethal dose|fatal dose)\b.{0,30}\b(?:pills|tablets|paracetamol|tylenol|ibuprofen|dose|die|overdose|kill)\b/,
  ],
  // Killing oneself, said any way, whatever comes before it.
  [
    "self-harm/intent",
    /\b(?:kill|killing|killed|hang|hanging|shoot|shooting|drown|drowning|poison|poisoning) myself\b/,
  ],
  ["self-harm/intent", /\b(?:end|ending|take|taking) my (?:own )?life\b/],
  ["self-harm/intent", /\bend(?:ing)? it all\b/],
  ["self-harm/intent", /\b(?:slit|cut|cutting) my wrists\b/],
  [
    "self-harm/intent",
    /\b(?:commit|committing|attempt|attempted|attempting|plan|planning|considering|contemplating|thinking about|thought about|thoughts of) suicide\b/,
  ],
  ["self-harm/intent", /\bsuicid(?:al|e note|e plan|e attempt)\b/],
  // Wanting to die or not to live.
  ["self-harm/intent", new RegExp(String.raw`\b${INTENT} (?:to )?(?:die|be dead)\b`)],
  ["self-harm/intent", /\bi (?:just )?want to die\b/],
  [
    "self-harm/intent",
    /\b(?:do not|no longer|never) want to (?:be alive|live|exist|be here|wake up (?:again|tomorrow|anymore|any more|ever))\b(?! (?:in|with|near|at|on|there|here)\b)/,
  ],
  ["self-harm/intent", /\b(?:sleep|go to sleep) and never wake up\b/],
  ["self-harm/intent", /\bwish (?:that )?i (?:was|were) (?:dead|never born|gone)\b/],
  [
    "self-harm/intent",
    /\b(?:better off|happier|better) (?:dead|without me|if i (?:was|were) (?:dead|gone))\b/,
  ],
  ["self-harm/intent", /\bwould rather be dead\b/],
  [
    "self-harm/intent",
    /\b(?:nobody|no one|noone) would (?:miss|care about|notice) me if i (?:was|were|died|disappeared)\b/,
  ],
  [
    "self-harm/intent",
    /\bno (?:reason|point) (?:to live|in living|to go on|in going on|to keep living)\b/,
  ],
  [
    "self-harm/intent",
    /\b(?:see|find) no point in living\b|\bdo not see the point (?:in|of) living\b/,
  ],
  [
    "self-harm/intent",
    /\b(?:life|living) (?:is|feels) (?:not|no longer) worth (?:living|it)\b|\bnot worth living\b/,
  ],
  ["self-harm/intent", /\bi can not go on\b/],
  [
    "self-harm/intent",
    new RegExp(String.raw`\b${INTENT} (?:to )?(?:jump off|jump in front of|throw myself)\b`),
  ],
  [
    "self-harm/intent",
    new RegExp(
      String.raw`\b${INTENT} (?:to )?(?:overdose|take all (?:my|the|of my) (?:pills|tablets|meds|medication))\b`,
    ),
  ],
  [
    "self-harm/intent",
    /\b(?:wants?|going|planning|trying|tried|threatening) to (?:kill|hurt|harm) (?:herself|himself|themselves|themself)\b/,
  ],
  // Harming oneself: an accident ("I cut myself shaving") says no wish or habit, so it needs one.
  [
    "self-harm",
    new RegExp(
      String.raw`\b(?:${INTENT}|keep|been|started|start|again|urges? to) (?:to )?(?:hurt|hurting|harm|harming|cut|cutting|burn|burning|starve|starving) myself\b`,
    ),
  ],
  ["self-harm", /\bselfharm/],
  ["self-harm", /\bself ?injur/],
];

/** Lower case, one kind of apostrophe, letters and digits only, single spaces. */
export function normaliseForCrisisCheck(text: string): string {
  let words = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, "")
    .replace(/[^\p{L}\p{N}'\s-]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  for (const [pattern, written] of SPELLINGS) words = words.replace(pattern, written);
  for (const idiom of IDIOMS) words = words.replace(idiom, " ");
  return words.replace(/'/g, "").replace(/\s+/g, " ").trim();
}

/** The offline verdict on one message: the first (most serious) category that matches. */
export function detectCrisis(text: string): CrisisVerdict {
  const words = normaliseForCrisisCheck(text);
  for (const [category, pattern] of RULES) {
    if (pattern.test(words)) return { flagged: true, category };
  }
  return { flagged: false };
}

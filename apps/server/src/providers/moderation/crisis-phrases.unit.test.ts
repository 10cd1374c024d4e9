import { describe, expect, it } from "vitest";
import { type CrisisCategory, detectCrisis } from "./crisis-phrases.ts";

/** Messages that must meet the crisis protocol, with the category the check gives them. */
const CRISIS: readonly [string, CrisisCategory][] = [
  ["I want to kill myself", "self-harm/intent"],
  ["I WANT TO KILL MYSELF", "self-harm/intent"],
  ["I’m going to kill myself", "self-harm/intent"],
  ["i'm gonna kms", "self-harm/intent"],
  ["I want to unalive myself", "self-harm/intent"],
  ["I don't want to be alive anymore", "self-harm/intent"],
  ["I dont want to exist anymore", "self-harm/intent"],
  ["I don't want to live anymore", "self-harm/intent"],
  ["I'm going to end my life tonight", "self-harm/intent"],
  ["I'm planning to take my own life", "self-harm/intent"],
  ["I'm thinking about taking my own life", "self-harm/intent"],
  ["I'm thinking about ending my life", "self-harm/intent"],
  ["I want to die", "self-harm/intent"],
  ["i wanna die", "self-harm/intent"],
  ["i want to die lol", "self-harm/intent"],
  ["I hate my life and want to die", "self-harm/intent"],
  ["I'm ready to die", "self-harm/intent"],
  ["I've made a plan to die", "self-harm/intent"],
  ["I've been thinking about suicide a lot", "self-harm/intent"],
  ["I feel suicidal", "self-harm/intent"],
  ["I am suicidal", "self-harm/intent"],
  ["I have suicidal thoughts every day", "self-harm/intent"],
  ["i want to commit suicide", "self-harm/intent"],
  ["I wrote a suicide note", "self-harm/intent"],
  ["I attempted suicide last year and I feel that way again", "self-harm/intent"],
  ["I'm thinking of killing myself", "self-harm/intent"],
  ["I've decided to kill myself", "self-harm/intent"],
  ["I tried to kill myself last month", "self-harm/intent"],
  ["I'm going to hang myself", "self-harm/intent"],
  ["I'm going to shoot myself", "self-harm/intent"],
  ["I want to drown myself", "self-harm/intent"],
  ["I want to slit my wrists", "self-harm/intent"],
  ["I want to end it all", "self-harm/intent"],
  ["I wish I was dead", "self-harm/intent"],
  ["I wish I were never born", "self-harm/intent"],
  ["everyone would be better off without me", "self-harm/intent"],
  ["I'd be better off dead", "self-harm/intent"],
  ["I'd rather be dead", "self-harm/intent"],
  ["Sometimes I think everyone would be happier if I was dead", "self-harm/intent"],
  ["nobody would miss me if I was gone", "self-harm/intent"],
  ["there is no reason to live anymore", "self-harm/intent"],
  ["I don't see the point in living anymore", "self-harm/intent"],
  ["life is not worth living", "self-harm/intent"],
  ["I can't go on like this anymore", "self-harm/intent"],
  ["I don't want to wake up tomorrow", "self-harm/intent"],
  ["I want to go to sleep and never wake up", "self-harm/intent"],
  ["I'm going to jump off a bridge", "self-harm/intent"],
  ["I'm going to jump off the roof tonight", "self-harm/intent"],
  ["I want to jump in front of a train", "self-harm/intent"],
  ["I want to overdose on my pills", "self-harm/intent"],
  ["I'm going to take all my pills at once", "self-harm/intent"],
  ["my friend says she wants to kill herself", "self-harm/intent"],
  ["how many pills does it take to overdose", "self-harm/instructions"],
  ["what is the most painless way to die", "self-harm/instructions"],
  ["how can I kill myself without pain", "self-harm/instructions"],
  ["what's a lethal dose of paracetamol", "self-harm/instructions"],
  ["Can you tell me how to hang myself", "self-harm/instructions"],
  ["best way to cut my wrists", "self-harm/instructions"],
  ["sometimes I want to hurt myself", "self-harm"],
  ["I feel like hurting myself", "self-harm"],
  ["I have been cutting myself again", "self-harm"],
  ["I want to cut myself", "self-harm"],
  ["I've been burning myself", "self-harm"],
  ["I'm going to starve myself", "self-harm"],
  ["I keep self harming", "self-harm"],
  ["I relapsed and self-harmed last night", "self-harm"],
];

/** Everyday words that only sound like a crisis: none may trigger it. */
const EVERYDAY: readonly string[] = [
  "this homework is killing me",
  "I'd die for a pizza",
  "I'm dying to see the new movie",
  "I'm dying of thirst",
  "you killed it on stage last night",
  "my feet are killing me after that hike",
  "the deadline is killing me",
  "this spicy food is going to kill me",
  "my boss is going to kill me if I'm late",
  "that joke killed me",
  "I killed myself laughing at your joke",
  "I nearly died laughing",
  "I could die of embarrassment",
  "I'd die happy if I met you",
  "that cake is to die for",
  "I will die on this hill",
  "I'm bored to death",
  "I'm dead tired",
  "I'm dead serious",
  "we're dead set on going to the beach",
  "my phone battery is dead",
  "the battery died again",
  "the plants died while I was away",
  "Game over, my character died again",
  "my grandfather died last year and I miss him",
  "we watched Suicide Squad yesterday",
  "I volunteer at a suicide prevention hotline",
  "the suicide rate is a topic in my public health class",
  "I'm not suicidal, just tired of work",
  "I cut myself shaving this morning",
  "I hurt myself at the gym",
  "I burned myself on the stove",
  "careful, the knife is sharp so don't cut yourself",
  "I shot myself in the foot with that decision",
  "I kicked myself for missing the bus",
  "I hate myself for forgetting your birthday",
  "I want to kill some time before the show",
  "let's kill the lights and watch a movie",
  "I don't want to live in this city anymore",
  "I don't want to live with my parents forever",
  "I want to live forever",
  "I'd rather die than wear those shoes",
  "I'd kill for a coffee right now",
  "I could murder a burger right now",
  "I'm killing it at work lately",
  "I'm starving, let's get food",
  "I'm drowning in work this week",
  "the last episode killed off my favourite character",
  "the cold is killing my plants",
  "my heart died a little when they cancelled the show",
  "over my dead body",
  "I want to dye my hair blue",
  "I didn't want to get up this morning",
  "I'm so tired I could sleep for a week",
  "this traffic makes me want to scream",
  "that exam was brutal, I wanted to cry",
  "how do I cut my hair at home",
  "what is the best way to learn guitar",
  "how many calories are in a pizza",
  "I jumped off the diving board at the pool",
  "I took my pills this morning like the doctor said",
  "I'm going to the beach tomorrow",
];

describe("the offline crisis check", () => {
  it("has a table of at least 60 crisis sentences and 60 everyday ones", () => {
    expect(CRISIS.length).toBeGreaterThanOrEqual(60);
    expect(EVERYDAY.length).toBeGreaterThanOrEqual(60);
  });

  it.each(CRISIS)("flags %j as %s", (sentence, category) => {
    expect(detectCrisis(sentence)).toEqual({ flagged: true, category });
  });

  it.each(EVERYDAY)("leaves %j alone", (sentence) => {
    expect(detectCrisis(sentence)).toEqual({ flagged: false });
  });

  it("reads through spacing, punctuation and look-alike letters", () => {
    expect(detectCrisis("i   want\tto…die!!!").flagged).toBe(true);
    expect(detectCrisis("I ＷＡＮＴ to kill my self").flagged).toBe(true);
    expect(detectCrisis("I want to k\u200Bill myself").flagged).toBe(true);
  });
});

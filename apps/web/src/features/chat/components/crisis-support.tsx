import {
  CRISIS_TEXT,
  type CrisisResource,
  crisisResourcesFor,
  type ProductMessageKind,
} from "@twinline/contracts";
import { ChevronDown, ChevronUp, LifeBuoy } from "lucide-react";
import { useEffect, useState } from "react";
import { formatTime } from "@/lib/format";
import { readStorage, writeStorage } from "@/lib/storage";

/** This tab's visit began at (session storage): crisis messages since then pin the resources. */
const SESSION_STARTED_KEY = "twinline.sessionStartedAt";
/** The resources are pinned for the rest of the visit (session storage). */
const PINNED_KEY = "twinline.crisisPinned";

function sessionStartedAt(): number {
  const stored = Number(readStorage(SESSION_STARTED_KEY, "session"));
  if (Number.isFinite(stored) && stored > 0) return stored;
  const now = Date.now();
  writeStorage(SESSION_STARTED_KEY, String(now), "session");
  return now;
}

interface CrisisMarked {
  productKind?: ProductMessageKind | null | undefined;
  timestamp?: string | undefined;
}

/**
 * Whether the crisis resources are pinned: once a crisis message was given in this visit (a
 * send's answer, or a crisis message of a call since the visit began), for the rest of it.
 */
export function useCrisisPin(messages: readonly CrisisMarked[], sentNow: boolean): boolean {
  const [pinned, setPinned] = useState(() => readStorage(PINNED_KEY, "session") === "1");
  const started = useState(sessionStartedAt)[0];
  const givenThisVisit =
    sentNow ||
    messages.some(
      (message) =>
        message.productKind === "crisis-support" &&
        message.timestamp !== undefined &&
        Date.parse(message.timestamp) >= started - 60_000,
    );
  useEffect(() => {
    if (givenThisVisit && !pinned) {
      writeStorage(PINNED_KEY, "1", "session");
      setPinned(true);
    }
  }, [givenThisVisit, pinned]);
  return pinned || givenThisVisit;
}

function ResourceItem({ resource }: { resource: CrisisResource }) {
  const digits = resource.contact.replace(/[^\d+]/g, "");
  return (
    <li className="text-sm">
      <span className="font-semibold">{resource.name}</span>
      {resource.contact ? (
        <>
          {": "}
          {digits.length >= 3 ? (
            <a className="underline underline-offset-2" href={`tel:${digits}`}>
              {resource.contact}
            </a>
          ) : (
            resource.contact
          )}
        </>
      ) : null}
      {resource.url ? (
        <>
          {" · "}
          <a
            className="underline underline-offset-2"
            href={resource.url}
            target="_blank"
            rel="noopener noreferrer"
          >
            {new URL(resource.url).hostname.replace(/^www\./, "")}
          </a>
        </>
      ) : null}
    </li>
  );
}

/** The product's caring message in the chat: not the persona's, plainly marked as automatic. */
export function CrisisMessage({ content, timestamp }: { content: string; timestamp?: string }) {
  return (
    <li className="flex justify-center" data-testid="crisis-message">
      <div className="w-full max-w-[95%] rounded-2xl border border-sky-300 bg-sky-50 px-4 py-3 text-sm whitespace-pre-wrap text-sky-950 sm:max-w-[80%] dark:border-sky-400/30 dark:bg-sky-500/10 dark:text-sky-50">
        <p className="mb-1 flex items-center gap-2 font-semibold">
          <LifeBuoy aria-hidden="true" className="size-4" />
          {CRISIS_TEXT.pinnedTitle}
        </p>
        {content}
        {timestamp ? (
          <time dateTime={timestamp} className="mt-1 block text-xs opacity-75">
            {formatTime(timestamp)}
          </time>
        ) : null}
      </div>
    </li>
  );
}

/**
 * The crisis lines, pinned above the message box for the rest of the visit once a crisis
 * message was given; folded (never removed) by the fan. The fan's country is not known: all.
 */
export function CrisisResourcesPanel({ resources }: { resources: readonly CrisisResource[] }) {
  const [open, setOpen] = useState(true);
  const shown = crisisResourcesFor(resources, null);
  return (
    <section
      aria-labelledby="crisis-resources-title"
      data-testid="crisis-resources"
      className="border-t border-sky-200 bg-sky-50 px-3 py-2 text-sky-950 sm:px-5 dark:border-sky-400/20 dark:bg-sky-950/40 dark:text-sky-50"
    >
      <div className="flex items-center gap-2">
        <LifeBuoy aria-hidden="true" className="size-4 shrink-0" />
        <h2 id="crisis-resources-title" className="flex-1 text-sm font-semibold">
          {CRISIS_TEXT.pinnedTitle}
        </h2>
        <button
          type="button"
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-controls="crisis-resources-list"
          className="inline-flex items-center gap-1 rounded-full px-2 py-1 text-xs font-medium hover:bg-sky-100 focus-visible:outline-2 focus-visible:outline-sky-700 dark:hover:bg-sky-900"
        >
          {open ? (
            <ChevronDown aria-hidden="true" className="size-3.5" />
          ) : (
            <ChevronUp aria-hidden="true" className="size-3.5" />
          )}
          {open ? CRISIS_TEXT.pinnedDismiss : "Show"}
        </button>
      </div>
      <div id="crisis-resources-list" hidden={!open}>
        <ul className="mt-1 space-y-1">
          {shown.map((resource) => (
            <ResourceItem key={`${resource.country}-${resource.name}`} resource={resource} />
          ))}
        </ul>
        <p className="mt-1 text-xs">{CRISIS_TEXT.emergency}</p>
      </div>
    </section>
  );
}

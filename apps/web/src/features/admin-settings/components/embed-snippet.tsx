import { Copy } from "lucide-react";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";

export const EMBED_SNIPPET_TEXT = {
  label: "Snippet for your site",
  hint: "Paste it into your site's pages: a chat bubble opens the twin's chat. It works only on the sites listed below.",
  copy: "Copy Snippet",
  copied: "Snippet copied",
  copyFailed: "Could not copy: select the snippet and copy it",
} as const;

/** The script tag of the chat bubble (issue 27 item 5; decision 0085), at PUBLIC_URL's /embed.js. */
export function embedSnippet(scriptUrl: string): string {
  return `<script src="${scriptUrl}" async></script>`;
}

/** The snippet, read only, with its copy button. */
export function EmbedSnippet({ scriptUrl, id }: { scriptUrl: string; id: string }) {
  const snippet = embedSnippet(scriptUrl);
  const copy = () => {
    navigator.clipboard
      .writeText(snippet)
      .then(() => toast.success(EMBED_SNIPPET_TEXT.copied, { id: "embed-snippet" }))
      .catch(() => toast.error(EMBED_SNIPPET_TEXT.copyFailed, { id: "embed-snippet" }));
  };
  return (
    <div>
      <p
        id={`${id}-label`}
        className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
      >
        {EMBED_SNIPPET_TEXT.label}
      </p>
      <div className="flex flex-wrap items-start gap-2">
        <code
          id={id}
          data-testid="embed-snippet"
          className="min-w-0 flex-1 break-all rounded-xl border border-stone-200 bg-stone-50 px-3 py-2.5 font-mono text-sm text-stone-900 dark:border-white/10 dark:bg-white/5 dark:text-stone-100"
        >
          {snippet}
        </code>
        <button type="button" onClick={copy} className={buttonClasses("secondary", "md")}>
          <Copy aria-hidden="true" className="size-4" />
          {EMBED_SNIPPET_TEXT.copy}
        </button>
      </div>
      <p className="mt-1.5 text-sm text-stone-600 dark:text-stone-400">{EMBED_SNIPPET_TEXT.hint}</p>
    </div>
  );
}

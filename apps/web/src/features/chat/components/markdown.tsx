import ReactMarkdown, { type Components } from "react-markdown";

/**
 * The persona's replies as markdown. react-markdown builds React elements, never HTML strings:
 * raw HTML in a reply shows as text (no rehype-raw), and unsafe link protocols (javascript:,
 * data:) are dropped by its default URL check. Links open in a new tab without access to this one.
 */
const components: Components = {
  a: ({ node: _node, href, children, ...rest }) => (
    <a
      {...rest}
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-600 dark:text-brand-300"
    >
      {children}
    </a>
  ),
  p: ({ node: _node, ...rest }) => <p className="my-2 first:mt-0 last:mb-0" {...rest} />,
  ul: ({ node: _node, ...rest }) => <ul className="my-2 list-disc space-y-1 pl-5" {...rest} />,
  ol: ({ node: _node, ...rest }) => <ol className="my-2 list-decimal space-y-1 pl-5" {...rest} />,
  pre: ({ node: _node, ...rest }) => (
    <pre
      className="my-2 overflow-x-auto rounded-lg bg-stone-900 p-3 text-xs text-stone-100 dark:bg-black/50"
      {...rest}
    />
  ),
  code: ({ node: _node, className, ...rest }) => (
    <code
      className={className ?? "rounded bg-stone-900/10 px-1 py-0.5 text-[0.9em] dark:bg-white/10"}
      {...rest}
    />
  ),
  blockquote: ({ node: _node, ...rest }) => (
    <blockquote className="my-2 border-l-4 border-stone-300 pl-3 dark:border-white/20" {...rest} />
  ),
  h1: ({ node: _node, ...rest }) => <p className="my-2 text-base font-bold" {...rest} />,
  h2: ({ node: _node, ...rest }) => <p className="my-2 text-base font-bold" {...rest} />,
  h3: ({ node: _node, ...rest }) => <p className="my-2 font-semibold" {...rest} />,
  img: ({ node: _node, alt }) => <span>{alt}</span>,
};

export function Markdown({ children }: { children: string }) {
  return <ReactMarkdown components={components}>{children}</ReactMarkdown>;
}

import ReactMarkdown, { type Components } from "react-markdown";
import { Link } from "react-router";

/**
 * A site page's markdown. react-markdown builds React elements, never HTML strings: raw HTML the
 * admin typed (a <script>, an onerror) shows as text (no rehype-raw), and unsafe link protocols
 * (javascript:, data:) are dropped by its default URL check. In-app links stay in the app.
 */
const components: Components = {
  a: ({ node: _node, href = "", children, ...rest }) => {
    const className =
      "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-600 dark:text-brand-300";
    return href.startsWith("/") && !href.startsWith("//") ? (
      <Link to={href} className={className}>
        {children}
      </Link>
    ) : (
      <a {...rest} href={href} target="_blank" rel="noopener noreferrer" className={className}>
        {children}
      </a>
    );
  },
  h1: ({ node: _node, ...rest }) => <h2 className="mt-8 mb-3 text-2xl font-bold" {...rest} />,
  h2: ({ node: _node, ...rest }) => <h2 className="mt-8 mb-3 text-xl font-bold" {...rest} />,
  h3: ({ node: _node, ...rest }) => <h3 className="mt-6 mb-2 text-lg font-semibold" {...rest} />,
  h4: ({ node: _node, ...rest }) => <h4 className="mt-4 mb-2 font-semibold" {...rest} />,
  p: ({ node: _node, ...rest }) => <p className="my-3 leading-relaxed" {...rest} />,
  ul: ({ node: _node, ...rest }) => <ul className="my-3 list-disc space-y-1.5 pl-6" {...rest} />,
  ol: ({ node: _node, ...rest }) => <ol className="my-3 list-decimal space-y-1.5 pl-6" {...rest} />,
  blockquote: ({ node: _node, ...rest }) => (
    <blockquote className="my-3 border-l-4 border-stone-300 pl-4 dark:border-white/20" {...rest} />
  ),
  pre: ({ node: _node, ...rest }) => (
    <pre
      className="my-3 overflow-x-auto rounded-lg bg-stone-100 p-3 text-sm dark:bg-black/40"
      {...rest}
    />
  ),
  img: ({ node: _node, alt }) => <span>{alt}</span>,
};

export function PageMarkdown({ children }: { children: string }) {
  return <ReactMarkdown components={components}>{children}</ReactMarkdown>;
}

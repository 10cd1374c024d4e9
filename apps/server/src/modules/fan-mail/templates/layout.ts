/**
 * The one look of the app's e-mails: the site's name and logo, a heading, paragraphs, a table of
 * details, a button, notes and (for what is not transactional) an unsubscribe link; as HTML and
 * as plain text. Every value is escaped here: a plan named `<script>` is text in the mail.
 */

export interface MailBrand {
  siteName: string;
  /** The logo as an absolute URL (PUBLIC_URL + the stored path); null: the name alone. */
  logoUrl: string | null;
}

export interface MailContent {
  subject: string;
  heading: string;
  paragraphs: string[];
  /** Label and value rows (what, amount, date, transaction id...). */
  details?: Array<[label: string, value: string]>;
  action?: { label: string; url: string };
  /** Smaller print below the button (how to cancel, what to do next). */
  notes?: string[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);

/** Only http(s) links go in an href (a stored logo or link could be anything). */
const safeUrl = (url: string): string | null => (/^https?:\/\//i.test(url) ? url : null);

/** One formatter for every date in a mail: "26 November 2026", in UTC. */
const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});
export const formatMailDate = (iso: string | Date): string => DATE_FORMAT.format(new Date(iso));

/** A moment in a mail: "26 November 2026, 14:05 UTC" (a withdrawal's, as the law asks). */
const DATE_TIME_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});
export const formatMailDateTime = (iso: string | Date): string =>
  `${DATE_TIME_FORMAT.format(new Date(iso)).replace(" at ", ", ")} UTC`;

export function renderMail(
  content: MailContent,
  brand: MailBrand,
  unsubscribeUrl: string | null,
): RenderedMail {
  const text = [
    brand.siteName,
    "",
    content.heading,
    "",
    ...content.paragraphs.flatMap((paragraph) => [paragraph, ""]),
    ...(content.details?.length
      ? [...content.details.map(([label, value]) => `${label}: ${value}`), ""]
      : []),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ""] : []),
    ...(content.notes ?? []).flatMap((note) => [note, ""]),
    ...(unsubscribeUrl
      ? [`You can stop e-mails like this one (not receipts): ${unsubscribeUrl}`, ""]
      : []),
    `— ${brand.siteName}`,
  ].join("\n");

  const logo = brand.logoUrl && safeUrl(brand.logoUrl);
  const header = logo
    ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(brand.siteName)}" height="40" style="height:40px;max-width:200px;border:0">`
    : `<strong style="font-size:20px">${escapeHtml(brand.siteName)}</strong>`;
  const details = content.details?.length
    ? `<table role="presentation" cellpadding="6" cellspacing="0" style="border-collapse:collapse;margin:16px 0;width:100%">${content.details
        .map(
          ([label, value]) =>
            `<tr><td style="color:#555;border-bottom:1px solid #eee">${escapeHtml(label)}</td><td style="border-bottom:1px solid #eee;text-align:right"><strong>${escapeHtml(value)}</strong></td></tr>`,
        )
        .join("")}</table>`
    : "";
  const actionUrl = content.action && safeUrl(content.action.url);
  const action =
    content.action && actionUrl
      ? `<p style="margin:24px 0"><a href="${escapeHtml(actionUrl)}" style="background:#6d28d9;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(content.action.label)}</a></p>`
      : "";
  const notes = (content.notes ?? [])
    .map((note) => `<p style="color:#555;font-size:13px">${escapeHtml(note)}</p>`)
    .join("");
  const unsubscribe = unsubscribeUrl
    ? `<p style="color:#777;font-size:12px">You can <a href="${escapeHtml(unsubscribeUrl)}">stop e-mails like this one</a> (receipts and notices about your payments still come).</p>`
    : "";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f5f5f7;font-family:Arial,Helvetica,sans-serif;color:#111">
<div style="max-width:560px;margin:0 auto;padding:24px;background:#fff">
<div style="margin-bottom:24px">${header}</div>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map((paragraph) => `<p style="line-height:1.5">${escapeHtml(paragraph)}</p>`).join("\n")}
${details}${action}${notes}${unsubscribe}
<p style="color:#777;font-size:12px;margin-top:32px">— ${escapeHtml(brand.siteName)}</p>
</div></body></html>`;
  return { subject: content.subject, text, html };
}

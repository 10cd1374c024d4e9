import { routes, UNSUBSCRIBE_MESSAGES } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { mailPreferences, users } from "../../db/schema/index.ts";
import { registerRoute } from "../../plugins/routes.ts";
import type { SettingsService } from "../settings/service.ts";
import { escapeHtml } from "./templates/layout.ts";
import type { UnsubscribeTokens } from "./unsubscribe-token.ts";

/** The unsubscribe link's path (routes.mail: GET the page, POST the choice). */
export const UNSUBSCRIBE_PATH = routes.mail.unsubscribe.path;

const page = (siteName: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>E-mail preferences · ${escapeHtml(siteName)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.5rem 1rem;border-radius:.4rem;border:1px solid #555;background:#6d28d9;color:#fff;cursor:pointer}</style>
</head><body><main><h1>${escapeHtml(siteName)}</h1>${body}</main></body></html>`;

/**
 * The unsubscribe link of mail that is not transactional (docs/decisions/0066). GET shows a
 * button (a mail scanner that opens links unsubscribes nobody); POST records the choice, and is
 * also the one-click unsubscribe of RFC 8058 (List-Unsubscribe-Post), which mail clients send
 * without a CSRF token: the signed token is the proof, and it can do nothing else.
 */
export const unsubscribeRoutes: FastifyPluginAsyncZod<{
  tokens: UnsubscribeTokens;
  settings: Pick<SettingsService, "get">;
}> = async (app, { tokens, settings }) => {
  // The one-click POST is a form body (`List-Unsubscribe=One-Click`); it says nothing needed.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 1024 },
    (_request, _body, done) => done(null, {}),
  );
  const siteName = async () => (await settings.get()).siteName;
  registerRoute(app, routes.mail.unsubscribePage, async (request, reply) => {
    const token = request.query.token ?? "";
    reply.type("text/html; charset=utf-8");
    if (!tokens.verify(token)) {
      reply.code(400);
      return page(await siteName(), `<p>${escapeHtml(UNSUBSCRIBE_MESSAGES.invalid)}</p>`);
    }
    const action = `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
    return page(
      await siteName(),
      `<p>${escapeHtml(UNSUBSCRIBE_MESSAGES.confirm)}</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`,
    );
  });

  registerRoute(
    app,
    routes.mail.unsubscribe,
    async (request, reply) => {
      const userId = tokens.verify(request.query.token ?? "");
      reply.type("text/html; charset=utf-8");
      if (!userId) {
        reply.code(400);
        return page(await siteName(), `<p>${escapeHtml(UNSUBSCRIBE_MESSAGES.invalid)}</p>`);
      }
      // An account deleted since: nothing to record (the foreign key would refuse it).
      await app.database.db.execute(
        sql`insert into ${mailPreferences} (user_id)
          select ${users.id} from ${users} where ${users.id} = ${userId}
          on conflict (user_id) do nothing`,
      );
      return page(await siteName(), `<p>${escapeHtml(UNSUBSCRIBE_MESSAGES.done)}</p>`);
    },
    { config: { csrf: false } },
  );
};

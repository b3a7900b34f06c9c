import type { NextAuthConfig } from "next-auth";
import type { Adapter, AdapterUser } from "next-auth/adapters";
import Nodemailer from "next-auth/providers/nodemailer";
import { escHtml, mailerFor } from "../alerts/channels/email";
import { getConfig } from "../config";
import { SHARED_CLIENT, clientAddress } from "../request-limits/client-address";
import { LOCALE_COOKIE, pickLocale, type Locale } from "../i18n/locale";
import { logger } from "../logger";
import { countLinkRequest, findOperator, findOperatorByEmail, storeSignInToken, consumeSignInToken } from "../operators";
import { createTranslator } from "next-intl";
import { TooManySignIns } from "./too-many-sign-ins";
import { linkTicket } from "./link-second-step";
import { hasSecondFactor } from "../two-factor";
import en from "../../messages/en.json";
import ja from "../../messages/ja.json";
import { systemCtx } from "../open-ctx";

/** The provider's id: links go to /api/auth/callback/email. */
export const EMAIL_PROVIDER = "email";

/** Sign-in links exist only where mail can be sent. */
export const emailLinkEnabled = () => Boolean(getConfig().SMTP_URL);

export const signInLinkMinutes = () => Math.max(1, Math.round(getConfig().SIGN_IN_LINK_TTL / 60_000));

const asUser = (operator: { id: string; email: string }): AdapterUser => ({ id: operator.id, email: operator.email, emailVerified: null });

/**
 * What Auth.js's email sign-in needs of a database: operators looked up by email and id (never
 * created: an address that is no operator never gets a token), and one-time tokens, which Auth.js
 * hands over already hashed with AUTH_SECRET.
 */
function operatorAdapter(): Adapter {
  return {
    async getUserByEmail(email) {
      const operator = await findOperatorByEmail(systemCtx(), email);
      return operator ? asUser(operator) : null;
    },
    async getUser(id) {
      const operator = await findOperator(systemCtx(), id);
      return operator ? asUser(operator) : null;
    },
    // Auth.js marks the address verified; an operator's address is known already, so nothing is kept.
    async updateUser(user) {
      const operator = await findOperator(systemCtx(), user.id);
      if (!operator) throw new Error("the operator no longer exists");
      return asUser(operator);
    },
    async createUser() {
      throw new Error("sign-in links are for existing operators only");
    },
    async createVerificationToken(token) {
      await storeSignInToken({ ctx: systemCtx(), input: { email: token.identifier, tokenHash: token.token, expiresAt: token.expires } });
      return token;
    },
    async useVerificationToken({ identifier, token }) {
      const used = await consumeSignInToken({ ctx: systemCtx(), input: { email: identifier, tokenHash: token } });
      return used ? { identifier: used.email, token, expires: used.expiresAt } : null;
    },
  };
}

const MESSAGES = { en, ja } as const;

/** The sign-in mail, text and HTML, in the language the person chose on the sign-in page. */
export function signInLinkMail(input: { locale: Locale; url: string; email: string; minutes: number }) {
  const t = createTranslator({ locale: input.locale, messages: MESSAGES[input.locale], namespace: "auth" });
  const subject = t("mailSubject");
  const intro = t("mailIntro", { email: input.email });
  const expiry = t("mailExpiry", { minutes: input.minutes });
  const ignore = t("mailIgnore");
  const text = [intro, "", input.url, "", expiry, ignore, "", "-- ", "Webhook Admin", ""].join("\n");
  const html = [
    `<!doctype html><html><body style="font-family:sans-serif">`,
    `<p>${escHtml(intro)}</p>`,
    `<p><a href="${escHtml(input.url)}" style="display:inline-block;padding:8px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${escHtml(t("mailAction"))}</a></p>`,
    `<p>${escHtml(expiry)} ${escHtml(ignore)}</p>`,
    `<p style="color:#888">Webhook Admin</p></body></html>`,
  ].join("");
  return { subject, text, html };
}

function cookieValue(request: Request, name: string): string | undefined {
  const pair = (request.headers.get("cookie") ?? "").split(";").map((part) => part.trim().split("=")).find(([key]) => key === name);
  return pair?.[1] ? decodeURIComponent(pair[1]) : undefined;
}

type LinkRequest = { identifier: string; url: string; request: Request };

/**
 * Auth.js's sendToken starts this, then awaits a hash before it awaits this: a refusal that comes
 * first (a quick rate-limit answer) is, for that moment, a rejection nobody handles — which Node
 * reports, and which ended the web process. Marked handled here; Auth.js still receives it.
 */
export function sendSignInLink(params: LinkRequest): Promise<void> {
  const sent = mailSignInLink(params);
  sent.catch(() => undefined);
  return sent;
}

/**
 * Counts the request against the link's own limits (countLinkRequest: apart from passwords, so
 * guessing passwords never stops the link), then mails the link — to an existing operator only.
 * Every address gets the same answer ("check your inbox") in the same time: the mail goes out
 * after the answer, so neither the answer nor its timing tells whether the address is an operator.
 */
async function mailSignInLink({ identifier, url, request }: LinkRequest): Promise<void> {
  const config = getConfig();
  const address = clientAddress(request, config.TRUST_PROXY);
  const retryAfterSeconds = await countLinkRequest({ ctx: systemCtx(), input: { email: identifier, address: address === SHARED_CLIENT ? null : address } });
  if (retryAfterSeconds !== null) throw new TooManySignIns(retryAfterSeconds);
  const operator = await findOperatorByEmail(systemCtx(), identifier);
  if (!operator) return;
  // Auth.js builds the link, and the page it returns to, from the request's URL; the mail carries
  // APP_URL's, whatever Host said (the redirect callback below lets the return go there).
  const built = new URL(url);
  const back = new URL(built.searchParams.get("callbackUrl") ?? "/", built.origin);
  built.searchParams.set("callbackUrl", back.origin === built.origin ? `${config.APP_URL}${back.pathname}${back.search}` : config.APP_URL);
  const link = `${config.APP_URL}${built.pathname}${built.search}`;
  const locale = pickLocale(cookieValue(request, LOCALE_COOKIE), request.headers.get("accept-language"));
  const mail = signInLinkMail({ locale, url: link, email: operator.email, minutes: signInLinkMinutes() });
  void mailerFor(config)
    .sendMail({ from: config.ALERT_EMAIL_FROM, to: operator.email, ...mail })
    .catch((error: unknown) => logger.warn("sign-in link not mailed", { error: error instanceof Error ? error.message : String(error) }));
}

/** The email provider, its adapter and the check that only operators get in; empty without SMTP_URL. */
export function emailLinkConfig(): Pick<NextAuthConfig, "adapter" | "providers" | "callbacks"> {
  if (!emailLinkEnabled()) return { providers: [] };
  const config = getConfig();
  return {
    adapter: operatorAdapter(),
    providers: [
      Nodemailer({
        id: EMAIL_PROVIDER,
        name: "Email",
        server: config.SMTP_URL!,
        from: config.ALERT_EMAIL_FROM,
        maxAge: Math.round(config.SIGN_IN_LINK_TTL / 1000),
        sendVerificationRequest: sendSignInLink,
      }),
    ],
    callbacks: {
      // Auth.js's own rule (a path, or this request's origin), and APP_URL's origin, which the
      // link's return address names.
      redirect({ url, baseUrl }) {
        if (url.startsWith("/")) return `${baseUrl}${url}`;
        const origin = URL.canParse(url) ? new URL(url).origin : null;
        return origin === baseUrl || origin === new URL(config.APP_URL).origin ? url : baseUrl;
      },
      // Asking for a link is always "sent" (sendSignInLink decides who gets mail); following one
      // signs in only an operator who still exists — and one with a second factor not yet: the
      // link was one factor, the code page takes the other (./link-second-step.ts).
      async signIn({ user, account, email }) {
        if (account?.provider !== EMAIL_PROVIDER || email?.verificationRequest) return true;
        if (!user.id || !(await findOperator(systemCtx(), user.id))) return false;
        if (!(await hasSecondFactor(systemCtx(), user.id))) return true;
        return `${config.APP_URL}/login?${new URLSearchParams({ ticket: linkTicket(user.id) })}`;
      },
    },
  };
}

import nodemailer from "nodemailer";
import type { Config } from "../../config";
import { logger } from "../../logger";
import type { AlertView } from "../render";
import { shortError, type SendOutcome } from "./outcome";

export type AlertEmail = { subject: string; text: string; html: string };

export const escHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** Plain text and HTML with the same content; the subject names the endpoint. */
export function alertEmail(view: AlertView, subjectDetail: string | null): AlertEmail {
  const subject = `[Webhook Admin] ${view.title}${subjectDetail ? `: ${subjectDetail}` : ""}`.replace(/[\r\n]+/g, " ").slice(0, 200);
  const text = [
    view.title,
    "",
    view.summary,
    "",
    ...view.fields.map((f) => `${f.label}: ${f.value}`),
    ...(view.foldedNote ? ["", view.foldedNote] : []),
    ...(view.link ? ["", `${view.link.label}: ${view.link.url}`] : []),
    "",
    "-- ",
    "Webhook Admin",
    "",
  ].join("\n");
  const rows = view.fields
    .map((f) => `<tr><th align="left" style="padding:2px 12px 2px 0">${escHtml(f.label)}</th><td>${escHtml(f.value)}</td></tr>`)
    .join("");
  const html = [
    `<!doctype html><html><body style="font-family:sans-serif">`,
    `<h2>${escHtml(view.title)}</h2>`,
    `<p>${escHtml(view.summary)}</p>`,
    rows ? `<table>${rows}</table>` : "",
    view.foldedNote ? `<p><small>${escHtml(view.foldedNote)}</small></p>` : "",
    view.link ? `<p><a href="${escHtml(view.link.url)}">${escHtml(view.link.label)}</a></p>` : "",
    `<p style="color:#888">Webhook Admin</p></body></html>`,
  ].join("");
  return { subject, text, html };
}

/** The full text as the alert log keeps it. */
export function emailLogText(to: string[], email: AlertEmail): string {
  return `To: ${to.join(", ")}\nSubject: ${email.subject}\n\n${email.text}`;
}

// One transport per SMTP_URL per process; nodemailer opens a connection per message.
let transport: { url: string; mailer: ReturnType<typeof nodemailer.createTransport> } | undefined;

/** The SMTP_URL transport, shared by alerts and sign-in links. */
export function mailerFor(config: Config) {
  const url = config.SMTP_URL!;
  if (transport?.url !== url) {
    const timeout = config.ALERT_TIMEOUT;
    transport = {
      url,
      mailer: nodemailer.createTransport({ url, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout }),
    };
  }
  return transport.mailer;
}

/**
 * Mails through SMTP_URL. Without it (the embedded demo) nothing is mailed: the alert log keeps the
 * email's full text, where a person trying the product sees it, and the worker's log says only that
 * one would have gone and to how many — the recipients and the text are a customer's (an alert
 * email, an endpoint's URL and description), which an erasure removes from the alert log but could
 * not take back from a log.
 */
export async function sendAlertEmail(to: string[], email: AlertEmail, config: Config): Promise<SendOutcome> {
  const message = emailLogText(to, email);
  if (!config.SMTP_URL) {
    logger.info("email alert not mailed: SMTP_URL is not set (the alert log keeps its text)", { recipients: to.length });
    return { ok: true, message };
  }
  // SMTP's own timeouts cover each step; this bounds the whole exchange like an HTTP alert's deadline.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the SMTP server within ${config.ALERT_TIMEOUT} ms`)), config.ALERT_TIMEOUT);
  });
  try {
    await Promise.race([mailerFor(config).sendMail({ from: config.ALERT_EMAIL_FROM, to, ...email }), deadline]);
    return { ok: true, message };
  } catch (error) {
    // nodemailer's messages name the server's answer, never SMTP_URL's credentials.
    return { ok: false, error: shortError(`smtp: ${error instanceof Error ? error.message : String(error)}`), message };
  } finally {
    clearTimeout(timer);
  }
}

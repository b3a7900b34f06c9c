/** What one try of one alert to one target came to; `message` is what was sent, kept in the log. */
export type SendOutcome = { ok: true; message: string } | { ok: false; error: string; message: string | null; final?: boolean };

/** Errors are kept short in the log; none of ours ever contains a credential. */
export function shortError(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 297)}...` : oneLine;
}

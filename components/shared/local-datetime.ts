// <input type="datetime-local"> speaks the viewer's local time without a zone; URLs and the API hold ISO instants.
export function isoToLocalInput(iso: string | Date): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export const localInputToIso = (local: string) => (local ? new Date(local).toISOString() : "");

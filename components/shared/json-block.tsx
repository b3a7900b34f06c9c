/** JSON shown as text, never as markup: whatever a payload holds, it renders inert. */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <pre aria-label={label} className="max-h-72 overflow-auto rounded-md border border-border bg-muted p-3 font-mono text-xs leading-relaxed">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

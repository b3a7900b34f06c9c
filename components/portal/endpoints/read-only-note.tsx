/** Why this session may not change endpoints, in words, when it may not (its link's capabilities). */
export function ReadOnlyNote({ reason }: { reason: string | null }) {
  if (!reason) return null;
  return (
    <p className="mb-4 text-sm text-muted-foreground" data-testid="portal-read-only">
      {reason}
    </p>
  );
}
